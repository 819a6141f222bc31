/**
 * kill -9 in the middle of a real ingest (a small demo load in a child process), then an
 * integrity check of what the store holds; a stop signal part-way; completion by `serve`, which
 * resumes the interrupted run; and idempotence of running it again. On a SQLite file, and on a
 * PostgreSQL database of its own when TEST_DATABASE_URL is set.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { directoryBlobStore } from '../../src/blobs/directory-blob-store.ts';
import { generateDemo } from '../../src/demo/generate-demo.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { listDemoRuns } from '../../src/store/demo-runs.ts';
import { storeIntegrityProblems } from '../helpers/store-integrity.ts';
import {
  freePort,
  runGamedata,
  waitUntilServing,
  type ChildRun,
} from '../helpers/server-process.ts';

const SEED = 3;
const SCALE = 0.02;

interface Target {
  name: string;
  /** Creates the empty database; returns its DATABASE_URL and how to drop it. */
  create(dataDir: string): Promise<{ url: string; drop(): Promise<void> }>;
  /** Matches stored so far (0 while the schema does not exist yet). */
  countMatches(url: string): Promise<number>;
}

const sqlite: Target = {
  name: 'sqlite',
  async create(dataDir) {
    return { url: `sqlite:${path.join(dataDir, 'store.sqlite')}`, drop: async () => {} };
  },
  async countMatches(url) {
    try {
      const db = new Database(url.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
      try {
        return Number((db.prepare('SELECT count(*) AS n FROM matches').get() as { n: number }).n);
      } finally {
        db.close();
      }
    } catch {
      return 0;
    }
  },
};

const postgres = (adminUrl: string): Target => ({
  name: 'postgres',
  async create() {
    const name = `gd_killingest_${crypto.randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      async drop() {
        const cleanup = new pg.Client({ connectionString: adminUrl });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.end();
      },
    };
  },
  async countMatches(url) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      return Number((await client.query('SELECT count(*) AS n FROM matches')).rows[0].n);
    } catch {
      return 0;
    } finally {
      await client.end().catch(() => {});
    }
  },
});

const targets = [
  sqlite,
  ...(process.env.TEST_DATABASE_URL ? [postgres(process.env.TEST_DATABASE_URL)] : []),
];

async function untilStored(target: Target, url: string, run: ChildRun, count: number) {
  while ((await target.countMatches(url)) < count) {
    if (run.child.exitCode !== null) {
      throw new Error(`the load ended (${run.child.exitCode}) before ${count} matches were stored`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function inspect(url: string, dataDir: string, check: (store: Store) => Promise<void>) {
  const store = await openStore(url);
  try {
    assert.deepEqual(
      await storeIntegrityProblems(store, directoryBlobStore(path.join(dataDir, 'blobs'))),
      [],
    );
    await check(store);
  } finally {
    await store.close();
  }
}

const matchCount = async (store: Store) =>
  Number(
    (
      await store.db
        .selectFrom('matches')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

for (const target of targets) {
  test(`[${target.name}] kill -9 during a demo load leaves only whole matches; serve completes the same run; re-running changes nothing`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-kill-'));
    const { url, drop } = await target.create(dataDir);
    const runs: ChildRun[] = [];
    const gamedata = (args: string[], env: Record<string, string> = {}) => {
      const run = runGamedata(args, { DATA_DIR: dataDir, DATABASE_URL: url, ...env });
      runs.push(run);
      return run;
    };
    try {
      const now = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
      const total = generateDemo({ seed: SEED, scale: SCALE, now: Date.parse(now) }).matchCount;
      const demoArgs = ['demo', '--seed', String(SEED), '--scale', String(SCALE), '--now', now];

      // 1. SIGKILL after a random-ish number of matches.
      const killed = gamedata(demoArgs);
      await untilStored(target, url, killed, 2 + crypto.randomInt(Math.floor(total / 3)));
      killed.child.kill('SIGKILL');
      assert.equal((await killed.exited).signal, 'SIGKILL');
      let afterKill = 0;
      await inspect(url, dataDir, async (store) => {
        afterKill = await matchCount(store);
        assert.ok(afterKill > 0 && afterKill < total, `${afterKill} of ${total} stored`);
        const [run] = await listDemoRuns(store.db);
        assert.deepEqual(
          { ...run, startedAt: 0 },
          { seed: SEED, scale: SCALE, now: Date.parse(now), startedAt: 0, finishedAt: null },
        );
      });

      // 2. SIGTERM part-way through the next attempt: it stops after the matches in flight.
      const stopped = gamedata(demoArgs);
      await untilStored(target, url, stopped, afterKill + 2);
      stopped.child.kill('SIGTERM');
      const stop = await stopped.exited;
      assert.equal(stop.code, 1, stopped.stderr());
      assert.match(stopped.stderr(), /Interrupted: run the same command again/);
      await inspect(url, dataDir, async (store) => {
        assert.ok((await matchCount(store)) < total, 'the stop signal stopped the load');
      });

      // 3. serve resumes the interrupted run (same seed, scale and instant), then serves.
      const port = await freePort();
      const server = gamedata(['serve'], {
        PORT: String(port),
        HOST: '127.0.0.1',
        DEMO_DATA: 'auto',
        DEMO_SEED: '99',
        JOBS: 'off',
      });
      await waitUntilServing(server, `http://127.0.0.1:${port}/healthz`);
      assert.match(server.stderr(), /Completing the interrupted demo load \(seed 3/);
      server.child.kill('SIGTERM');
      assert.equal((await server.exited).code, 0, server.stderr());
      await inspect(url, dataDir, async (store) => {
        assert.equal(await matchCount(store), total, 'the same run, completed');
        assert.notEqual((await listDemoRuns(store.db))[0]!.finishedAt, null);
      });

      // 4. Running the demo again changes nothing: without --now it reuses the recorded instant.
      const again = gamedata(demoArgs.slice(0, 5));
      assert.equal((await again.exited).code, 0, again.stderr());
      assert.match(again.stdout(), new RegExp(`\\(0 new, ${total} already stored\\)`));
      await inspect(url, dataDir, async (store) => assert.equal(await matchCount(store), total));
    } finally {
      for (const run of runs) run.child.kill('SIGKILL');
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
