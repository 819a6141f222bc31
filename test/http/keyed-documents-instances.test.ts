/**
 * The keyed documents' cache seen from outside: another instance's commit shows at this
 * instance's next feed poll (and not before: the documents are cached), a revoked key is refused
 * though its documents are cached, DOCUMENT_CACHE_MB=0 reads every request afresh, the bound
 * holds, and every answer — status, headers, bytes — is what the service answers without it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import {
  KEYED_HERO,
  currentPcSeason,
  ingestKeyedFixture,
  keyedUrls,
} from '../helpers/keyed-urls.ts';
import { buildApp } from '../../src/app.ts';
import { createChangeFeed, type ChangeFeed } from '../../src/store/change-feed.ts';
import { announceChanges } from '../../src/store/changes.ts';
import { DOCUMENT_CHANGES, playerTag } from '../../src/store/document-changes.ts';
import { createApiKey, revokeApiKey } from '../../src/store/api-keys.ts';

const PLAYER = `/shards/pc-b/players/${KEYED_HERO}`;
/** Headers that differ between two answers by design: the time, and the budget left. */
const VOLATILE = ['date', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

for (const database of testDatabases) {
  describe(`keyed documents across instances (${database.name})`, () => {
    let t: TestApp;
    let app: FastifyInstance;
    let feed: ChangeFeed;
    const nameOf = async (target: FastifyInstance, url = PLAYER): Promise<string> => {
      const response = await target.inject({ url, headers: t.auth });
      assert.equal(response.statusCode, 200, response.body);
      return response.json().data.attributes.name;
    };
    /** A rename committed by another process: the row, and its announcement on the feed. */
    const renameElsewhere = async (name: string): Promise<void> => {
      await t.store.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('players')
          .set({ name })
          .where('account_id', '=', KEYED_HERO)
          .execute();
        const tags = JSON.stringify([playerTag('pc-b', KEYED_HERO)]);
        await announceChanges(trx, DOCUMENT_CHANGES, [tags], t.clock.now());
      });
    };

    before(async () => {
      t = await createTestApp(database);
      await ingestKeyedFixture(t);
      feed = createChangeFeed(t.store, { clock: t.clock, every: () => () => {} });
      app = await buildApp({ ...t, changes: feed, logger: false });
    });
    after(async () => {
      await app.close();
      await t.close();
    });

    test("another instance's commit is served after the next poll, not before", async () => {
      await feed.poll();
      assert.equal(await nameOf(app), 'Player0');
      await renameElsewhere('Renamed');
      assert.equal(await nameOf(app), 'Player0', 'cached until the feed is read');
      await feed.poll();
      assert.equal(await nameOf(app), 'Renamed');
    });

    test('a revoked key is refused though the documents it read are cached', async () => {
      const { key, record } = await createApiKey(t.store.db, {
        name: 'revoked',
        ratePerMinute: 100,
        now: t.clock.now(),
      });
      const headers = { authorization: `Bearer ${key}` };
      assert.equal((await app.inject({ url: PLAYER, headers })).statusCode, 200);
      await revokeApiKey(t.store.db, record.id, t.clock.now());
      await feed.poll();
      assert.equal((await app.inject({ url: PLAYER, headers })).statusCode, 401);
      assert.equal((await app.inject({ url: PLAYER, headers: t.auth })).statusCode, 200);
    });

    test('DOCUMENT_CACHE_MB=0 reads every request from the store', async () => {
      const uncached = await buildApp({
        ...t,
        config: { ...t.config, documentCacheBytes: 0 },
        changes: feed,
        logger: false,
      });
      try {
        assert.equal(await nameOf(uncached), await nameOf(app));
        await t.store.db
          .updateTable('players')
          .set({ name: 'Unannounced' })
          .where('account_id', '=', KEYED_HERO)
          .execute();
        assert.equal(await nameOf(uncached), 'Unannounced');
        assert.notEqual(await nameOf(app), 'Unannounced', 'the cached instance keeps its bytes');
      } finally {
        await uncached.close();
      }
    });

    test('the cache holds no more than DOCUMENT_CACHE_MB', async () => {
      const bounded = await buildApp({
        ...t,
        config: { ...t.config, documentCacheBytes: 1024 * 1024, metrics: 'on' },
        changes: feed,
        logger: false,
      });
      try {
        const one = await bounded.inject({ url: '/shards/pc-b/seasons', headers: t.auth });
        const perEntry = one.rawPayload.length;
        // Distinct URLs of the same document: well over a megabyte of them.
        const count = Math.ceil((2 * 1024 * 1024) / perEntry);
        for (let n = 0; n < count; n++) {
          const url = `/shards/pc-b/seasons?n=${n}`;
          assert.equal((await bounded.inject({ url, headers: t.auth })).statusCode, 200);
        }
        const metrics = (await bounded.inject({ url: '/metrics' })).body;
        const held = Number(/gamedata_cache_bytes\{cache="document"\} (\d+)/.exec(metrics)?.[1]);
        assert.ok(held > 512 * 1024, `only ${held} bytes held`);
        assert.ok(held <= 1024 * 1024, `${held} bytes held, over the bound`);
      } finally {
        await bounded.close();
      }
    });

    test('every answer is the one the service gives without the cache', async () => {
      const uncached = await buildApp({
        ...t,
        config: { ...t.config, documentCacheBytes: 0 },
        changes: feed,
        logger: false,
      });
      const season = await currentPcSeason(t);
      // Undoes the unannounced rename of the test before, announced this time.
      await renameElsewhere('Player0');
      await feed.poll();
      const variants = [
        {},
        { 'accept-encoding': 'gzip' },
        { accept: 'application/json', origin: 'https://client.example' },
      ];
      try {
        for (const url of keyedUrls(season)) {
          for (const headers of variants) {
            const request = { url, headers: { ...t.auth, ...headers } };
            const expected = describeAnswer(await uncached.inject(request));
            // The first answer renders, the second comes from the cache.
            for (let round = 0; round < 2; round++) {
              assert.deepEqual(describeAnswer(await app.inject(request)), expected, url);
            }
          }
        }
      } finally {
        await uncached.close();
      }
    });
  });
}

function describeAnswer(response: LightMyRequestResponse): unknown {
  const headers: Record<string, unknown> = { ...response.headers };
  for (const name of VOLATILE) delete headers[name];
  const bytes =
    headers['content-encoding'] === 'gzip'
      ? zlib.gunzipSync(response.rawPayload)
      : response.rawPayload;
  delete headers['content-length'];
  return { status: response.statusCode, headers, body: bytes.toString() };
}
