/**
 * Lookups the upstream answered 404 to are remembered for the player TTL (no upstream request
 * meanwhile), then their mirror_cursors rows are deleted, so names that never existed do not
 * pile up in the store.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { type TestApp } from '../helpers/app.ts';
import { createMirrorOf, startTestUpstream, type TestUpstream } from '../helpers/upstream.ts';
import { readCursor, writeCursor } from '../../src/store/mirror-state.ts';

const TTL_SECONDS = 600;
const PLAYER_ROUTE = '/shards/:shard/players/:accountId';
const cursorOf = (accountId: string) => `players:pc-b:id:${accountId}`;

for (const database of testDatabases) {
  describe(`404 lookups of the mirror are dropped after their TTL (${database.name})`, () => {
    let upstream: TestUpstream;
    let mirror: TestApp;
    const lookUp = async (accountId: string): Promise<number> =>
      (
        await mirror.app.inject({
          url: `/shards/pc-b/players/${accountId}`,
          headers: mirror.auth,
        })
      ).statusCode;

    before(async () => {
      upstream = await startTestUpstream(database);
      mirror = await createMirrorOf(database, upstream, {
        UPSTREAM_PLAYER_TTL_SECONDS: String(TTL_SECONDS),
      });
    });
    after(async () => {
      await mirror.close();
      await upstream.stop();
    });

    test('a 404 is trusted for the TTL, then its row is deleted; other lookups stay', async () => {
      const db = mirror.store.db;
      // A lookup that found its player long ago: not a 404, so never dropped by this.
      await writeCursor(db, cursorOf('account.found'), '1', 1);

      assert.equal(await lookUp('account.nobody-one'), 404);
      assert.match(String(await readCursor(db, cursorOf('account.nobody-one'))), /^missing:/);
      const asked = upstream.received.get(PLAYER_ROUTE) ?? 0;
      assert.equal(await lookUp('account.nobody-one'), 404);
      assert.equal(upstream.received.get(PLAYER_ROUTE), asked, 'the 404 is remembered');

      mirror.clock.advance((TTL_SECONDS + 61) * 1000);
      assert.equal(await lookUp('account.nobody-two'), 404);
      assert.equal(await readCursor(db, cursorOf('account.nobody-one')), null, 'dropped');
      assert.match(String(await readCursor(db, cursorOf('account.nobody-two'))), /^missing:/);
      assert.equal(await readCursor(db, cursorOf('account.found')), '1');
    });
  });
}
