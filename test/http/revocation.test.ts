import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp } from '../helpers/app.ts';
import { buildApp } from '../../src/app.ts';
import { createApiKey, revokeApiKey } from '../../src/store/api-keys.ts';
import { createChangeFeed } from '../../src/store/change-feed.ts';

/** The promise: every other instance refuses a revoked key within this, in ms. */
const OTHER_INSTANCES_WITHIN_MS = 5_000;

for (const database of testDatabases) {
  test(`[${database.name}] a revoked key is refused at once where it was revoked, and within 5 s on every other instance`, async () => {
    const t = await createTestApp(database);
    // Two instances on one database. The test's clock never moves, so the key cache's TTL never
    // expires: only the change feed can make an instance forget the key.
    const revokerFeed = createChangeFeed(t.store, { clock: t.clock });
    const revoker = await buildApp({ ...t, changes: revokerFeed, logger: false });
    const other = await buildApp({ ...t, logger: false });
    try {
      const { key, record } = await createApiKey(t.store.db, {
        name: 'soon revoked',
        ratePerMinute: 1000,
        now: t.clock.now(),
      });
      const seasons = (app: typeof other) =>
        app.inject({ url: '/shards/pc-b/seasons', headers: { authorization: `Bearer ${key}` } });
      assert.equal((await seasons(revoker)).statusCode, 200);
      assert.equal((await seasons(other)).statusCode, 200);

      // A serving instance that revokes polls its feed once committed: its cache drops the key now.
      assert.ok(await revokeApiKey(t.store.db, record.id, t.clock.now()));
      await revokerFeed.poll();
      const refused = await seasons(revoker);
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.json().errors[0].detail, 'API key invalid or missing');

      const started = performance.now();
      let status = (await seasons(other)).statusCode;
      while (status !== 401 && performance.now() - started < OTHER_INSTANCES_WITHIN_MS) {
        await sleep(50);
        status = (await seasons(other)).statusCode;
      }
      assert.equal(status, 401, 'the other instance still accepts the revoked key after 5 s');
      // Other keys are unaffected.
      assert.equal(
        (await other.inject({ url: '/shards/pc-b/seasons', headers: t.auth })).statusCode,
        200,
      );
    } finally {
      await other.close();
      await revoker.close();
      await revokerFeed.stop();
      await t.close();
    }
  });
}

for (const database of testDatabases) {
  test(`[${database.name}] a key tried before it existed works once it is created`, async () => {
    const t = await createTestApp(database);
    const feed = createChangeFeed(t.store, { clock: t.clock });
    const app = await buildApp({ ...t, changes: feed, logger: false });
    try {
      // The key's text is chosen up front so it can be tried before it is stored; the clock
      // never moves, so only the feed can make the instance forget its "unknown key" answer.
      const key = 'gd_created_after_a_refusal_0001';
      const seasons = () =>
        app.inject({ url: '/shards/pc-b/seasons', headers: { authorization: `Bearer ${key}` } });
      assert.equal((await seasons()).statusCode, 401);
      await createApiKey(t.store.db, { name: 'late', ratePerMinute: 100, now: t.clock.now(), key });
      await feed.poll();
      assert.equal((await seasons()).statusCode, 200);
    } finally {
      await app.close();
      await feed.stop();
      await t.close();
    }
  });
}
