/**
 * PostgreSQL going away under the real server: backends terminated (a failover, a restart, an
 * idle reaper), the database refusing connections for a while, and a start while it does not
 * exist yet. Each test uses a database of its own on the local server (TEST_DATABASE_URL).
 */
import { findMatchMembers } from '../../src/store/match-documents.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStore } from '../../src/store/store.ts';
import { syncSeasons } from '../../src/store/seasons.ts';
import { directoryBlobStore } from '../../src/blobs/directory-blob-store.ts';
import { systemClock } from '../../src/clock.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { createApiKey } from '../../src/store/api-keys.ts';
import { TEST_CONFIG } from '../helpers/ingest-deps.ts';
import { accountId, makeMatchInput, sampleTelemetry } from '../helpers/matches.ts';
import { ownDatabase, requestLoop, startServer, type OwnDatabase } from './fault-helpers.ts';

const skip = process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL';
const API_KEY = 'gd_fault-test-key-0123456789';
const AUTH = { authorization: `Bearer ${API_KEY}` };
/** The promise: answering again this soon after the database is back, in ms. */
const RECOVERY_MS = 5_000;

/** Fills the database with one match an hour old, so player requests answer 200 from it. */
async function seed(db: OwnDatabase): Promise<void> {
  const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-fault-blobs-'));
  const store = await openStore(db.url);
  try {
    await syncSeasons(store, Date.now());
    const match = makeMatchInput({
      seed: db.name,
      overrides: { createdAt: new Date(Date.now() - 3_600_000).toISOString() },
    });
    await ingestMatch(
      { store, blobs: directoryBlobStore(blobDir), clock: systemClock, config: TEST_CONFIG },
      match,
    );
  } finally {
    await store.close();
    fs.rmSync(blobDir, { recursive: true, force: true });
  }
}

async function status(url: string): Promise<number> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(5_000) })).status;
  } catch {
    return 0;
  }
}

async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (await condition()) return true;
    await sleep(100);
  }
  return false;
}

test(
  'backends terminated and connections refused under requests: 200 or 503, never a crash, 200 again within 5 s',
  { skip, timeout: 90_000 },
  async () => {
    const db = await ownDatabase('outage');
    await db.create();
    await seed(db);
    const server = await startServer({
      DATABASE_URL: db.url,
      DEMO_API_KEY: API_KEY,
      DATABASE_CONNECT_TIMEOUT_SECONDS: '2',
      // Cached documents are answered without the database through an outage: every request
      // here must reach the store to show how its loss is answered.
      DOCUMENT_CACHE_MB: '0',
    });
    try {
      await server.waitFor(/is serving/, 30_000);
      let n = 0;
      const urls = [
        `${server.baseUrl}/shards/pc-b/players?filter[playerNames]=Player0`,
        `${server.baseUrl}/shards/pc-b/players/${accountId(1)}`,
      ];
      const loop = requestLoop(() => urls[n++ % urls.length]!, AUTH, {
        workers: 4,
        timeoutMs: 10_000,
        pauseMs: 5,
      });
      await sleep(1_000);
      // A failover or restart: every session cut, again and again.
      for (let i = 0; i < 3; i++) {
        await db.terminateBackends();
        await sleep(300);
      }
      // The database refuses connections for a while: readiness must say so.
      await db.allowConnections(false);
      await db.terminateBackends();
      const unready = await until(
        async () => (await status(`${server.baseUrl}/readyz`)) === 503,
        5_000,
      );
      await sleep(1_000);
      await db.allowConnections(true);
      const back = performance.now();
      const recovered = await until(
        async () => loop.answers.some((answer) => answer.at > back && answer.status === 200),
        RECOVERY_MS,
      );
      await sleep(300);
      const answers = await loop.stop();

      assert.equal(server.child.exitCode, null, `the server died; stderr:\n${server.stderr()}`);
      assert.ok(unready, '/readyz answered 503 while the database refused connections');
      assert.ok(recovered, `no 200 within ${RECOVERY_MS} ms of the database coming back`);
      const statuses = new Map<number, number>();
      for (const answer of answers)
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      assert.deepEqual(
        [...statuses.keys()].filter((s) => s !== 200 && s !== 503),
        [],
        `only 200 and 503: ${JSON.stringify([...statuses])}`,
      );
      const unavailable = answers.filter((answer) => answer.status === 503);
      assert.ok(unavailable.length > 0, 'the outage was seen as 503s');
      for (const answer of unavailable) {
        assert.ok(Number(answer.retryAfter) >= 1, 'a 503 carries Retry-After');
        assert.equal(JSON.parse(answer.body).errors[0].title, 'Service Unavailable');
      }
      const slowest = Math.max(...answers.map((answer) => answer.ms));
      assert.ok(slowest < 5_000, `every answer came within a bounded time (slowest ${slowest} ms)`);
      assert.equal(await status(`${server.baseUrl}/readyz`), 200);
      assert.match(server.stdout(), /"msg":"PostgreSQL unavailable/);
      assert.doesNotMatch(server.stderr(), /uncaught|unhandled/i);
    } finally {
      await server.stop();
      await db.drop();
    }
  },
);

test(
  'a start before the database exists waits, says so, and serves once it appears',
  { skip, timeout: 90_000 },
  async () => {
    const db = await ownDatabase('late');
    const server = await startServer({
      DATABASE_URL: db.url,
      DATABASE_STARTUP_TIMEOUT_SECONDS: '60',
    });
    try {
      await server.waitFor(/not reachable \(attempt 2\)/, 30_000);
      assert.match(server.stdout(), /does not exist/);
      await db.create();
      await server.waitFor(/is serving/, 30_000);
      assert.equal(await status(`${server.baseUrl}/readyz`), 200);
      // JSON log lines on stdout, one per attempt.
      const lines = server
        .stdout()
        .split('\n')
        .filter((line) => /not reachable/.test(line))
        .map((line) => (JSON.parse(line) as { msg: string }).msg);
      assert.ok(
        lines.every((line) => /retrying in \d+\.\d s/.test(line)),
        lines.join('\n'),
      );
      assert.doesNotMatch(server.stderr(), /^\s+at /m, 'no stack trace');
    } finally {
      await server.stop();
      await db.drop();
    }
  },
);

test(
  'a match posted, and telemetry sent later, while the database refuses connections: a 503 in bounded time from the worker that stores them, nothing half written, 201 once it is back',
  { skip, timeout: 90_000 },
  async () => {
    const db = await ownDatabase('posted');
    await db.create();
    const store = await openStore(db.url);
    let ingestKey: string;
    try {
      await syncSeasons(store, Date.now());
      ({ key: ingestKey } = await createApiKey(store.db, {
        name: 'game-server',
        scope: 'ingest',
        ratePerMinute: 1_000,
        now: Date.now(),
      }));
    } finally {
      await store.close();
    }
    const server = await startServer({
      DATABASE_URL: db.url,
      DATABASE_CONNECT_TIMEOUT_SECONDS: '2',
      INGEST_WORKERS: '1',
    });
    const post = async (
      body: string,
    ): Promise<{ status: number; ms: number; response: Response }> => {
      const started = performance.now();
      const response = await fetch(`${server.baseUrl}/ingest/matches`, {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/json' },
        signal: AbortSignal.timeout(20_000),
      });
      return { status: response.status, ms: performance.now() - started, response };
    };
    const recent = (seed: string): string =>
      JSON.stringify(
        makeMatchInput({
          seed: `${db.name}-${seed}`,
          telemetry: true,
          overrides: { createdAt: new Date(Date.now() - 3_600_000).toISOString() },
        }),
      );
    /** Telemetry sent later, to a worker that stores too. */
    const putTelemetry = async (id: string): Promise<{ status: number; ms: number }> => {
      const started = performance.now();
      const response = await fetch(`${server.baseUrl}/ingest/matches/${id}/telemetry`, {
        method: 'PUT',
        body: JSON.stringify(sampleTelemetry(id, Date.now() - 3_600_000)),
        headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/json' },
        signal: AbortSignal.timeout(20_000),
      });
      await response.arrayBuffer();
      return { status: response.status, ms: performance.now() - started };
    };
    const later = makeMatchInput({
      seed: `${db.name}-later`,
      overrides: { createdAt: new Date(Date.now() - 3_600_000).toISOString() },
    });
    try {
      await server.waitFor(/is serving/, 30_000);
      // The worker has opened its store: the outage cuts its connections.
      assert.equal((await post(recent('before'))).status, 201);
      assert.equal((await post(JSON.stringify(later))).status, 201);
      await db.allowConnections(false);
      await db.terminateBackends();

      const attach = await putTelemetry(later.id);
      assert.equal(attach.status, 503, 'telemetry sent later: 503 too');
      assert.ok(attach.ms < 10_000, `answered in bounded time (${Math.round(attach.ms)} ms)`);

      const during = recent('during');
      const refused = await post(during);
      assert.equal(refused.status, 503, await refused.response.text());
      assert.ok(Number(refused.response.headers.get('retry-after')) >= 1, 'with Retry-After');
      assert.ok(refused.ms < 10_000, `answered in bounded time (${Math.round(refused.ms)} ms)`);
      assert.equal(server.child.exitCode, null, `the server died; stderr:\n${server.stderr()}`);

      await db.allowConnections(true);
      let again = await post(during);
      for (let tries = 0; again.status === 503 && tries < 20; tries++) {
        await sleep(250);
        again = await post(during);
      }
      assert.equal(again.status, 201, 'stored once the database is back, as a new match');
      assert.equal((await putTelemetry(later.id)).status, 201, 'and the telemetry attached');
      const id = (JSON.parse(during) as { id: string }).id;
      const check = await openStore(db.url);
      try {
        const rows = await check.db
          .selectFrom('matches')
          .select('platform')
          .where('id', '=', id)
          .execute();
        assert.equal(rows.length, 1, 'its match row is there, once');
        const members = await findMatchMembers(check.db, id, rows[0]!.platform);
        assert.ok(members.participants.length > 0, 'with its participants');
      } finally {
        await check.close();
      }
      assert.doesNotMatch(server.stderr(), /uncaught|unhandled/i);
    } finally {
      await server.stop();
      await db.drop();
    }
  },
);
