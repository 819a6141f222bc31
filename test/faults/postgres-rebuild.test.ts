/**
 * The PostgreSQL leaderboard rebuild (two boards at once, each read on a serial connection of
 * its own) when one board fails: the job reports the error and gives its lease back, every
 * board stays whole — the failed one still holds its previous build, the other builder's board
 * is committed whole and none is started after the failure — and the pool serves on, with
 * each connection's settings as the server's defaults.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pg from 'pg';
import { fixedClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { rebuildLeaderboardsJob } from '../../src/jobs/rebuild-leaderboards.ts';
import { runJobOnce, type JobDeps } from '../../src/jobs/scheduler.ts';
import { jobState } from '../../src/store/job-locks.ts';
import { syncSeasons } from '../../src/store/seasons.ts';
import type { Store } from '../../src/store/store.ts';
import { directoryBlobStore } from '../../src/blobs/directory-blob-store.ts';
import { TEST_NOW } from '../helpers/matches.ts';
import { testDatabases } from '../helpers/stores.ts';
import {
  hookBoards,
  seedEveryBoard,
  storedBoards,
  type BoardCalls,
  type StoredBoard,
} from '../helpers/leaderboard-boards.ts';

const postgres = testDatabases.find((database) => database.name === 'postgres');
const skip = postgres ? false : 'needs TEST_DATABASE_URL';
const OWNER = 'rebuild-fault-test';
const CONNECTION_LOST = /terminat|connection error/i;
/** The order the builders take the boards in: platform by platform, mode by mode. */
const BOARDS = ['pc-a', 'pc-b'].flatMap((platform) =>
  ['solo', 'solo-fpp', 'duo', 'duo-fpp', 'squad', 'squad-fpp'].map((mode) => `${platform} ${mode}`),
);

/** A store with every board built once from 200 players a board; `run` runs the job again. */
async function builtStore(): Promise<{
  store: Store;
  before: Map<string, StoredBoard>;
  run: () => ReturnType<typeof runJobOnce>;
}> {
  const store = await postgres!.open();
  const clock = fixedClock(TEST_NOW);
  await syncSeasons(store, clock.now());
  await seedEveryBoard(store, clock.now(), 200);
  const deps: JobDeps = {
    store,
    blobs: directoryBlobStore('unused-by-this-job'),
    config: loadConfig({ DATA_DIR: 'unused-by-this-job' }),
    clock,
  };
  const run = () => runJobOnce(deps, rebuildLeaderboardsJob, OWNER);
  const first = await run();
  assert.ok('summary' in first, JSON.stringify(first));
  const before = await storedBoards(store.db);
  assert.deepEqual([...before.keys()].sort(), [...BOARDS].sort());
  for (const board of before.values()) assert.equal(board.entries.length, 200);
  return { store, before, run };
}

/**
 * After a run that failed on board `failed`: that board and those never started hold their
 * previous build; every other board started holds a new build, whole; and the builders took no
 * further board once the failure was noticed.
 */
async function assertBoardsWhole(
  store: Store,
  before: Map<string, StoredBoard>,
  calls: BoardCalls,
  failed: number,
): Promise<void> {
  assert.equal(calls.active, 0, 'no board is still being read once the job has ended');
  assert.ok(calls.started > failed, 'the failing board was started');
  // Without the stop, the builders would go on through every board.
  assert.ok(calls.started < BOARDS.length, `the builders stopped taking boards (${calls.started})`);
  const after = await storedBoards(store.db);
  for (const [index, key] of BOARDS.entries()) {
    const previous = before.get(key)!;
    const now = after.get(key);
    assert.ok(now, `${key} still has a build`);
    assert.deepEqual(now.entries, previous.entries, `${key}: every entry, none half written`);
    const rebuilt = index < calls.started && index !== failed;
    assert.equal(now.id !== previous.id, rebuilt, `${key} ${rebuilt ? 'rebuilt' : 'kept'}`);
  }
}

/** The lease is free again and records the run's error. */
async function assertLeaseReleased(store: Store, error: RegExp): Promise<void> {
  const state = await jobState(store.db, rebuildLeaderboardsJob.name);
  assert.equal(state?.owner, null);
  assert.equal(state?.lockedUntil, 0);
  assert.match(state?.lastError ?? '', error);
}

/** Every board holds a build newer than `before`'s, with the same entries. */
async function assertAllRebuilt(store: Store, before: Map<string, StoredBoard>): Promise<void> {
  const after = await storedBoards(store.db);
  for (const key of BOARDS) {
    assert.notEqual(after.get(key)!.id, before.get(key)!.id, key);
    assert.deepEqual(after.get(key)!.entries, before.get(key)!.entries, key);
  }
}

/** Every connection of the pool at once answers, with the server's defaults. */
async function assertPoolServes(store: Store): Promise<void> {
  const settings = await Promise.all(
    Array.from({ length: 10 }, () =>
      store.db.connection().execute(async (connection) => {
        const { rows } = await sql<{ setting: string }>`SELECT
          current_setting('max_parallel_workers_per_gather') || ' ' || current_setting('jit')
          AS setting, pg_sleep(0.05)`.execute(connection);
        return rows[0]!.setting;
      }),
    ),
  );
  assert.ok(!settings.includes('0 off'), `no serial settings left: ${settings.join(', ')}`);
  assert.equal(new Set(settings).size, 1, settings.join(', '));
}

test(
  'a board whose write fails keeps its previous build; the job reports it and frees its lease',
  { skip, timeout: 60_000 },
  async () => {
    const { store, before, run } = await builtStore();
    try {
      // Fails the write of pc-a duo half-way through its entries, after its old build was deleted.
      await sql`CREATE FUNCTION fail_one_board() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.rank = 120 AND EXISTS (SELECT 1 FROM leaderboards l
            WHERE l.id = NEW.leaderboard_id AND l.platform = 'pc-a' AND l.game_mode = 'duo') THEN
            RAISE EXCEPTION 'injected failure of a board write';
          END IF;
          RETURN NEW;
        END $$`.execute(store.db);
      await sql`CREATE TRIGGER fail_one_board AFTER INSERT ON leaderboard_entries
        FOR EACH ROW EXECUTE FUNCTION fail_one_board()`.execute(store.db);
      const calls = hookBoards(store, { board: -1, afterStatements: 0, run: async () => {} });
      const result = await run();
      assert.ok('error' in result, JSON.stringify(result));
      assert.match(result.error, /injected failure of a board write/);
      await assertBoardsWhole(store, before, calls, BOARDS.indexOf('pc-a duo'));
      await assertLeaseReleased(store, /injected failure/);
      await assertPoolServes(store);

      await sql`DROP TRIGGER fail_one_board ON leaderboard_entries`.execute(store.db);
      const again = await run();
      assert.ok('summary' in again, JSON.stringify(again));
      await assertAllRebuilt(store, before);
    } finally {
      await store.close();
    }
  },
);

test(
  'a board whose connection is cut mid-read fails the job cleanly; the pool replaces it, settings reset',
  { skip, timeout: 60_000 },
  async () => {
    const { store, before, run } = await builtStore();
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const failed = BOARDS.indexOf('pc-a duo-fpp');
      // After the board's means and its first range end, its server process is ended.
      const calls = hookBoards(store, {
        board: failed,
        afterStatements: 2,
        run: async (pid) => {
          await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        },
      });
      const result = await run();
      assert.ok('error' in result, JSON.stringify(result));
      // Cut under its next statement, or noticed by the client just before sending it.
      assert.match(result.error, CONNECTION_LOST);
      await assertBoardsWhole(store, before, calls, failed);
      await assertLeaseReleased(store, CONNECTION_LOST);
      await assertPoolServes(store);

      const again = await run();
      assert.ok('summary' in again, JSON.stringify(again));
      await assertAllRebuilt(store, before);
    } finally {
      await admin.end();
      await store.close();
    }
  },
);
