import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testDatabases } from '../helpers/stores.ts';
import { startTestUpstream, type TestUpstream } from '../helpers/upstream.ts';
import { runGamedata } from '../helpers/server-process.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { runJobOnce } from '../../src/jobs/scheduler.ts';
import { buildSamplesJob } from '../../src/jobs/build-samples.ts';
import { openStore } from '../../src/store/store.ts';
import { createApiKey } from '../../src/store/api-keys.ts';
import { DEFAULT_CRAWL_SHARDS } from '../../src/upstream/mirror-crawl.ts';
import crypto from 'node:crypto';
import pg from 'pg';

const MATCH_ROUTE = '/shards/:shard/matches/:matchId';
const DAY_MS = 86_400_000;
const MATCHES = 60;

/** Where the mirror's store is: a SQLite file under DATA_DIR, or a database of its own. */
const TARGETS = ['sqlite', ...(process.env.TEST_DATABASE_URL ? ['postgres' as const] : [])];

/** Runs one statement on the server of TEST_DATABASE_URL on a connection of its own. */
async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A database of the mirror's own on that server: its URL, and a drop to call afterwards. */
async function ownDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `gd_mirror_kill_${crypto.randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

describe('gamedata mirror --once: killed with SIGKILL, then run again', () => {
  let upstream: TestUpstream;
  let dataDir: string;
  const expected = new Set<string>();

  before(async () => {
    upstream = await startTestUpstream(testDatabases[0]!);
    // Enough matches in one day's sample that a kill lands part-way through the pass.
    const createdAt = new Date(upstream.t.clock.now() - DAY_MS).toISOString();
    for (let seed = 0; seed < MATCHES; seed++) {
      const match = makeMatchInput({
        seed: `kill-${seed}`,
        telemetry: true,
        overrides: { createdAt },
      });
      await ingestMatch(upstream.t, match);
    }
    await runJobOnce(upstream.t, buildSamplesJob, 'test');
    for (const shard of DEFAULT_CRAWL_SHARDS) {
      const response = await upstream.t.app.inject({
        url: `/shards/${shard}/samples`,
        headers: upstream.t.auth,
      });
      if (response.statusCode !== 200) continue;
      for (const ref of response.json().data.relationships.matches.data) expected.add(ref.id);
    }
    upstream.received.clear();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-mirror-kill-'));
  });
  after(async () => {
    await upstream.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  for (const target of TARGETS) {
    test(`the restart completes the pass, each match stored once, little repeated (${target})`, async (t) => {
      upstream.received.clear();
      const database = target === 'postgres' ? await ownDatabase() : null;
      t.after(() => database?.drop());
      const targetDir = fs.mkdtempSync(path.join(dataDir, `${target}-`));
      // A key of its own: on the other target's, its passes waited out that one's minute.
      const { key } = await createApiKey(upstream.t.store.db, {
        name: `mirror ${target}`,
        ratePerMinute: 10,
        now: upstream.t.clock.now(),
      });
      const env = {
        DATA_DIR: targetDir,
        ...(database ? { DATABASE_URL: database.url } : {}),
        DEMO_DATA: 'off',
        // The child runs on the real clock: keep every demo match, however old.
        RETENTION_DAYS: '0',
        UPSTREAM_URL: upstream.url,
        UPSTREAM_API_KEYS: key,
      };
      const first = runGamedata(['mirror', '--once'], env);
      while ((upstream.received.get(MATCH_ROUTE) ?? 0) < 3 && first.child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      first.child.kill('SIGKILL');
      assert.equal((await first.exited).signal, 'SIGKILL');
      const fetchedBefore = upstream.received.get(MATCH_ROUTE) ?? 0;
      assert.ok(fetchedBefore < expected.size, 'killed part-way');

      const second = runGamedata(['mirror', '--once'], env);
      const { code } = await second.exited;
      assert.equal(code, 0, second.stderr());
      assert.match(second.stdout(), /matches: \d+ stored, \d+ held already, 0 missing upstream/);

      const store = await openStore(
        database?.url ?? `sqlite:${path.join(targetDir, 'gamedata.sqlite')}`,
      );
      try {
        const rows = await store.db
          .selectFrom('matches')
          .select(['id', 'telemetry_key'])
          .where('id', 'in', [...expected])
          .execute();
        assert.equal(rows.length, expected.size, 'every sampled match is stored');
        assert.ok(
          rows.every((row) => row.telemetry_key !== null),
          'each with its telemetry',
        );
      } finally {
        await store.close();
        await database?.drop();
      }
      // Repeated at most the matches in flight when the first run was killed (4 at a time).
      const fetched = upstream.received.get(MATCH_ROUTE) ?? 0;
      assert.ok(fetched <= expected.size + 4, `${fetched} match requests for ${expected.size}`);
      assert.equal(upstream.refused(), 0);
    });
  }
});
