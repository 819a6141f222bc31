import { findMatchMembers } from '../../src/store/match-documents.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { fixedClock } from '../../src/clock.ts';
import { runJobOnce, type Job } from '../../src/jobs/scheduler.ts';
import { announceChanges } from '../../src/store/changes.ts';
import { createChangeFeed } from '../../src/store/change-feed.ts';
import { jobState, requestJobRebuilds } from '../../src/store/job-locks.ts';
import { BUSY_TIMEOUT_MS, writeWithoutBlocking } from '../../src/store/sqlite/lock-wait.ts';
import { syncSeasons } from '../../src/store/seasons.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { directoryBlobStore } from '../../src/blobs/directory-blob-store.ts';
import { resolveShard } from '../../src/domain/shards.ts';
import { ingestClan } from '../../src/ingest/ingest-clan.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { loadMatchDocument } from '../../src/ingest/load-match-document.ts';
import {
  canonicalMatchDocumentVariant,
  matchDocumentVariantKey,
} from '../../src/presenters/match-document.ts';
import { TEST_CONFIG } from '../helpers/ingest-deps.ts';
import { TEST_NOW, makeMatchInput, participantsOf } from '../helpers/matches.ts';

const NOW = Date.UTC(2026, 0, 10);

/**
 * A store on a file, and a second connection to it (as the job thread's) holding the write lock
 * until a timer of this thread lets it go: a write that waits in SQLite's busy handler would
 * stop this thread — the timer could not fire, and the write would fail after the timeout.
 */
async function withLockHeldByAnother(
  work: (store: Store, events: string[]) => Promise<void>,
  before: (store: Store) => Promise<void> = async () => {},
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-lock-'));
  const file = path.join(dir, 'gamedata.sqlite');
  const store = await openStore(`sqlite:${file}`);
  const holder = new BetterSqlite3(file);
  let letGo: NodeJS.Timeout | undefined;
  try {
    await before(store);
    holder.exec('BEGIN IMMEDIATE');
    const events: string[] = [];
    letGo = setTimeout(() => {
      events.push('lock let go');
      holder.exec('COMMIT');
    }, 20);
    await work(store, events);
  } finally {
    clearTimeout(letGo);
    holder.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('a write waits for a lock held by another connection with the event loop running', async () => {
  await withLockHeldByAnother(async (store, events) => {
    await writeWithoutBlocking(store, (db) => requestJobRebuilds(db, ['leaderboards']));
    events.push('written');
    assert.deepEqual(events, ['lock let go', 'written']);
    assert.equal((await jobState(store.db, 'leaderboards'))?.rebuildRequested, true);
    const [row] = (await sql<{ timeout: number }>`pragma busy_timeout`.execute(store.db)).rows;
    assert.equal(row?.timeout, BUSY_TIMEOUT_MS, 'the connection waits in SQLite again afterwards');
  });
});

test('a failure other than the lock is thrown at once, and the busy handler is back', async () => {
  await withLockHeldByAnother(async (store, events) => {
    await assert.rejects(
      writeWithoutBlocking(store, () => Promise.reject(new Error('not a lock'))),
      /not a lock/,
    );
    assert.deepEqual(events, [], 'no wait');
    const [row] = (await sql<{ timeout: number }>`pragma busy_timeout`.execute(store.db)).rows;
    assert.equal(row?.timeout, BUSY_TIMEOUT_MS);
  });
});

test("a job's lease is taken and given back while another connection holds the lock, without blocking", async () => {
  await withLockHeldByAnother(async (store, events) => {
    const job: Job = {
      name: 'probe',
      intervalMs: () => 60_000,
      outputMissing: async () => false,
      run: async () => {
        events.push('ran');
        return 'done';
      },
    };
    const deps = { store, blobs: null as never, config: null as never, clock: fixedClock(NOW) };
    const result = await runJobOnce(deps, job, 'instance-a');
    assert.deepEqual(result, { ran: true, summary: 'done' });
    assert.deepEqual(events, ['lock let go', 'ran']);
    const state = await jobState(store.db, 'probe');
    assert.equal(state?.owner, null, 'the lease is given back');
    assert.equal(state?.lastFinishedAt, NOW);
  });
});

test("the change feed's pruning waits for a lock held elsewhere without blocking, and prunes", async () => {
  await withLockHeldByAnother(
    async (store, events) => {
      const warnings: string[] = [];
      const feed = createChangeFeed(store, {
        clock: fixedClock(NOW),
        keepMs: 60_000,
        log: { warn: (message) => warnings.push(message), info: () => {} },
      });
      await feed.poll();
      events.push('polled');
      assert.deepEqual(warnings, []);
      assert.deepEqual(events, ['lock let go', 'polled']);
      const left = await store.db.selectFrom('changes').select('seq').execute();
      assert.deepEqual(left, [], 'the old change is pruned');
    },
    (store) => announceChanges(store.db, 'api_key', ['old'], NOW - 120_000),
  );
});

test('a match document rendered on first request is saved while another connection holds the lock, without blocking', async () => {
  const match = makeMatchInput();
  await withLockHeldByAnother(
    async (store, events) => {
      const platform = resolveShard(match.platformShard, {})!.platform;
      // Another spelling than ingest rendered: the first request renders and saves it.
      const variant = {
        ...canonicalMatchDocumentVariant(platform, TEST_CONFIG),
        publicBaseUrl: 'http://other.test',
      };
      const document = await loadMatchDocument(store, match.id, variant);
      events.push('rendered');
      assert.ok(document !== null);
      assert.deepEqual(events, ['lock let go', 'rendered']);
      const saved = await store.db
        .selectFrom('match_documents')
        .select('variant')
        .where('match_id', '=', match.id)
        .where('variant', 'like', `${matchDocumentVariantKey(variant)}%`)
        .execute();
      assert.equal(saved.length, 1, 'the rendering is stored');
    },
    async (store) => {
      const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-lock-blobs-'));
      const deps = {
        store,
        blobs: directoryBlobStore(blobDir),
        clock: fixedClock(TEST_NOW),
        config: TEST_CONFIG,
      };
      await ingestMatch(deps, match);
      fs.rmSync(blobDir, { recursive: true, force: true });
    },
  );
});

test('a match ingested while another connection holds the lock waits without blocking, written whole', async () => {
  const match = makeMatchInput();
  const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-lock-blobs-'));
  try {
    await withLockHeldByAnother(
      async (store, events) => {
        const deps = {
          store,
          blobs: directoryBlobStore(blobDir),
          clock: fixedClock(TEST_NOW),
          config: TEST_CONFIG,
        };
        const result = await ingestMatch(deps, match);
        events.push(result.status);
        assert.deepEqual(events, ['lock let go', 'ingested']);
        const stored = await findMatchMembers(store.db, match.id, match.platformShard);
        assert.equal(
          stored.participants.length,
          participantsOf(match).length,
          'every participant is written',
        );
        const [row] = (await sql<{ timeout: number }>`pragma busy_timeout`.execute(store.db)).rows;
        assert.equal(row?.timeout, BUSY_TIMEOUT_MS);
      },
      (store) => syncSeasons(store, TEST_NOW),
    );
  } finally {
    fs.rmSync(blobDir, { recursive: true, force: true });
  }
});

test('a clan ingested while another connection holds the lock waits without blocking', async () => {
  await withLockHeldByAnother(async (store, events) => {
    const deps = { store, blobs: null as never, clock: fixedClock(TEST_NOW), config: TEST_CONFIG };
    await ingestClan(deps, {
      kind: 'clan',
      platform: 'pc-a',
      id: 'clan.0123456789abcdef0123456789abcdef',
      name: 'Lock',
      tag: 'LCK',
      level: 3,
    });
    events.push('clan written');
    assert.deepEqual(events, ['lock let go', 'clan written']);
    const clans = await store.db.selectFrom('clans').select('name').execute();
    assert.deepEqual(clans, [{ name: 'Lock' }]);
  });
});

test('seasons synced while another connection holds the lock wait without blocking', async () => {
  await withLockHeldByAnother(async (store, events) => {
    await syncSeasons(store, TEST_NOW);
    events.push('synced');
    assert.deepEqual(events, ['lock let go', 'synced']);
    const seasons = await store.db.selectFrom('seasons').select('id').execute();
    assert.ok(seasons.length > 0, 'the catalogue is written');
  });
});
