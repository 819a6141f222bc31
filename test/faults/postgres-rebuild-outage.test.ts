/**
 * PostgreSQL lost in the middle of a leaderboard rebuild that reads on a serial connection: the
 * database of the test's own has every session ended and refuses new ones. The job fails
 * (without hanging on the dead connections), requests meanwhile answer 503, and once the
 * database is back requests answer 200 again, the boards are those of the last build and the
 * next run rebuilds them all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { rebuildLeaderboardsJob } from '../../src/jobs/rebuild-leaderboards.ts';
import { runJobOnce } from '../../src/jobs/scheduler.ts';
import { openStore } from '../../src/store/store.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import {
  hookBoards,
  rankedAccountId,
  seedEveryBoard,
  storedBoards,
} from '../helpers/leaderboard-boards.ts';
import { ownDatabase } from './fault-helpers.ts';

const skip = process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL';
const OWNER = 'rebuild-outage-test';
/** Generous bound on a run that lost its database: each wait is bounded by about a second. */
const FAILS_WITHIN_MS = 30_000;

/** The status of a player lookup, which reads the store on every request here. */
async function lookup(t: TestApp): Promise<{ status: number; retryAfter: unknown }> {
  const response = await t.app.inject({
    url: `/shards/pc-a/players/${rankedAccountId('pc-a', 7)}`,
    headers: t.auth,
  });
  return { status: response.statusCode, retryAfter: response.headers['retry-after'] };
}

test(
  'PostgreSQL lost mid-rebuild: the job fails, requests answer 503, and both recover once it is back',
  { skip, timeout: 90_000 },
  async () => {
    const db = await ownDatabase('rebuild');
    await db.create();
    const t = await createTestApp(
      { name: 'postgres', open: () => openStore(db.url, { connectTimeoutMs: 1_000 }) },
      { DOCUMENT_CACHE_MB: '0' },
    );
    try {
      await seedEveryBoard(t.store, t.clock.now(), 200);
      const run = () => runJobOnce(t, rebuildLeaderboardsJob, OWNER);
      assert.ok('summary' in (await run()));
      const before = await storedBoards(t.store.db);
      assert.equal((await lookup(t)).status, 200);

      let lostAt = 0;
      // The outage begins while the fourth board is being read, between two of its statements.
      const calls = hookBoards(t.store, {
        board: 3,
        afterStatements: 2,
        run: async () => {
          await db.allowConnections(false);
          await db.terminateBackends();
          lostAt = performance.now();
        },
      });
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        run().then(
          (result) => ('error' in result ? result.error : `unexpected ${JSON.stringify(result)}`),
          (error: unknown) => String(error),
        ),
        new Promise<string>((resolve) => {
          timer = setTimeout(resolve, FAILS_WITHIN_MS, 'still running');
        }),
      ]).finally(() => clearTimeout(timer));
      assert.ok(lostAt > 0, 'the outage began mid-rebuild');
      assert.match(outcome, /terminat|connection error|No connection to PostgreSQL/i);
      assert.equal(calls.active, 0, 'no board is still being read');

      const during = await lookup(t);
      assert.equal(during.status, 503);
      assert.ok(Number(during.retryAfter) >= 1, 'a 503 carries Retry-After');

      await db.allowConnections(true);
      let after = await lookup(t);
      // A request may still meet a pooled session cut by the outage before the pool notices.
      for (let i = 0; i < 5 && after.status !== 200; i++) after = await lookup(t);
      assert.equal(after.status, 200);
      const kept = await storedBoards(t.store.db);
      for (const [key, board] of before) {
        assert.deepEqual(kept.get(key)?.entries, board.entries, `${key} is whole`);
      }
      const { rows } = await sql<{ setting: string }>`SELECT
        current_setting('max_parallel_workers_per_gather') || ' ' || current_setting('jit')
        AS setting`.execute(t.store.db);
      assert.notEqual(rows[0]!.setting, '0 off');

      // The lease the lost run could not give back is this owner's: the next run takes it.
      const again = await run();
      assert.ok('summary' in again, JSON.stringify(again));
      const rebuilt = await storedBoards(t.store.db);
      for (const [key, board] of before) {
        assert.notEqual(rebuilt.get(key)?.id, board.id, `${key} rebuilt`);
        assert.deepEqual(rebuilt.get(key)?.entries, board.entries, `${key} ranks the same`);
      }
    } finally {
      await t.close();
      await db.drop();
    }
  },
);
