import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { testDatabases } from '../helpers/stores.ts';
import { fixedClock } from '../../src/clock.ts';
import type { Store } from '../../src/store/store.ts';
import { announceChanges, latestChangeSeq } from '../../src/store/changes.ts';
import { createChangeFeed, type ChangeFeed } from '../../src/store/change-feed.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');

/** A feed polled only when the test says so, recording what each kind receives. */
function recordingFeed(store: Store, clock = fixedClock(NOW)) {
  const warnings: string[] = [];
  const feed = createChangeFeed(store, {
    clock,
    log: { warn: (message) => warnings.push(message), info: () => {} },
    every: () => () => {},
  });
  const received: Record<string, Array<readonly string[] | 'all'>> = {};
  const listen = (kind: string): void => {
    received[kind] = [];
    feed.subscribe(kind, (keys) => received[kind]!.push(keys));
  };
  return { feed, received, warnings, listen, clock };
}

for (const database of testDatabases) {
  describe(`change feed (${database.name})`, () => {
    async function withStore(work: (store: Store) => Promise<void>): Promise<void> {
      const store = await database.open();
      try {
        await work(store);
      } finally {
        await store.close();
      }
    }

    test('a start counts as "everything changed"; then each poll delivers new changes per kind, once', () =>
      withStore(async (store) => {
        await announceChanges(store.db, 'api_key', ['before-start'], NOW);
        const { feed, received, listen } = recordingFeed(store);
        listen('api_key');
        listen('player');
        await feed.start();
        assert.deepEqual(received, { api_key: ['all'], player: ['all'] });

        await announceChanges(store.db, 'api_key', ['key_1'], NOW);
        await announceChanges(store.db, 'player', ['p1', 'p2'], NOW);
        await announceChanges(store.db, 'api_key', ['key_2'], NOW);
        await feed.poll();
        assert.deepEqual(received.api_key, ['all', ['key_1', 'key_2']]);
        assert.deepEqual(received.player, ['all', ['p1', 'p2']]);

        await feed.poll();
        assert.equal(received.api_key!.length, 2, 'nothing is delivered twice by polling');
        await feed.stop();
      }));

    test('a rolled-back announcement is never delivered and leaves no gap', () =>
      withStore(async (store) => {
        const { feed, received, listen } = recordingFeed(store);
        listen('api_key');
        await feed.start();
        const head = await latestChangeSeq(store.db);
        await assert.rejects(
          store.db.transaction().execute(async (trx) => {
            await announceChanges(trx, 'api_key', ['rolled-back'], NOW);
            throw new Error('the change failed');
          }),
          /the change failed/,
        );
        await announceChanges(store.db, 'api_key', ['committed'], NOW);
        assert.equal(await latestChangeSeq(store.db), head + 1);
        await feed.poll();
        assert.deepEqual(received.api_key, ['all', ['committed']]);
        await feed.stop();
      }));

    test('concurrent writers are numbered in commit order', () =>
      withStore(async (store) => {
        const { feed, received, listen } = recordingFeed(store);
        listen('k');
        await feed.start();
        let releaseFirst!: () => void;
        const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
        const first = store.db.transaction().execute(async (trx) => {
          await announceChanges(trx, 'k', ['first'], NOW);
          await firstHolds;
        });
        await sleep(20);
        const second = announceChanges(store.db, 'k', ['second'], NOW);
        await sleep(50);
        // SQLite has one connection: a reader waits for the open transaction like the writer.
        if (database.name === 'postgres') {
          await feed.poll();
          assert.deepEqual(received.k, ['all'], 'nothing is visible before the first commits');
        }
        releaseFirst();
        await Promise.all([first, second]);
        await feed.poll();
        assert.deepEqual(received.k, ['all', ['first', 'second']]);
        await feed.stop();
      }));

    test('a reader that fell behind pruned changes is told everything changed', () =>
      withStore(async (store) => {
        const behind = recordingFeed(store);
        behind.listen('api_key');
        await behind.feed.start();
        await announceChanges(store.db, 'api_key', ['old'], NOW);
        // Another instance, ten minutes later, prunes what is older than five minutes.
        const later = recordingFeed(store, fixedClock(NOW + 600_000));
        await later.feed.start();
        await announceChanges(store.db, 'api_key', ['new'], NOW + 600_000);
        await later.feed.poll();
        await behind.feed.poll();
        assert.deepEqual(behind.received.api_key, ['all', 'all', ['new']]);
        await Promise.all([behind.feed.stop(), later.feed.stop()]);
      }));

    test('a failing subscriber does not keep the others from their changes', () =>
      withStore(async (store) => {
        const { feed, received, listen, warnings } = recordingFeed(store);
        feed.subscribe('api_key', () => {
          throw new Error('subscriber bug');
        });
        listen('api_key');
        await feed.start();
        await announceChanges(store.db, 'api_key', ['k'], NOW);
        await feed.poll();
        assert.deepEqual(received.api_key, ['all', ['k']]);
        assert.ok(warnings.some((w) => w.includes('subscriber bug')));
        await feed.stop();
      }));
  });
}

test('a feed whose database is gone logs once and keeps trying, never throwing', async () => {
  const store = await testDatabases[0]!.open();
  const { feed, warnings } = recordingFeed(store);
  await feed.start();
  await store.close();
  await feed.poll();
  await feed.poll();
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0]!, /cannot read changes/);
  await feed.stop();
});

test('polls run on the injected timer until stopped', async () => {
  const store = await testDatabases[0]!.open();
  let tick: (() => void) | null = null;
  let cancelled = false;
  const feed: ChangeFeed = createChangeFeed(store, {
    clock: fixedClock(NOW),
    every: (ms, run) => {
      assert.equal(ms, 500);
      tick = run;
      return () => (cancelled = true);
    },
  });
  const seen: Array<readonly string[] | 'all'> = [];
  feed.subscribe('api_key', (keys) => seen.push(keys));
  await feed.start();
  await announceChanges(store.db, 'api_key', ['k'], NOW);
  tick!();
  await feed.poll();
  assert.deepEqual(seen, ['all', ['k']]);
  await feed.stop();
  assert.ok(cancelled);
  await store.close();
});
