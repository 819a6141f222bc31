import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import { HAVE_FIXTURES, assertSameShape, loadFixture } from '../helpers/fixture-shapes.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import type { MatchInput } from '../../src/ingest/match-input.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOT_FOUND_BODY = {
  errors: [{ title: 'Not Found', detail: 'No Players Found Matching Criteria' }],
};

for (const database of testDatabases) {
  describe(`players (${database.name})`, () => {
    let t: TestApp;
    let now: number;
    const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const ingest = (input: MatchInput) =>
      ingestMatch({ store: t.store, blobs: t.blobs, config: t.config, clock: t.clock }, input);
    const get = (url: string, headers: Record<string, string> = t.auth) =>
      t.app.inject({ url, headers });
    const matchIds: Record<string, string> = {};

    before(async () => {
      t = await createTestApp(database);
      now = t.clock.now();
      // Players 0–3 play two matches, the older two hours ago, the newer one hour ago.
      for (const [seed, ago] of [
        ['older', 2 * HOUR],
        ['newer', HOUR],
      ] as const) {
        const match = makeMatchInput({ seed, overrides: { createdAt: iso(now - ago) } });
        matchIds[seed] = match.id;
        await ingest(match);
      }
      // Two accounts named Twin: the one seen most recently owns the name.
      const twin = (id: string, seed: string, ago: number) =>
        makeMatchInput({
          seed,
          rosters: 1,
          player: ({ index }) =>
            index === 0
              ? { playerId: accountId(id), name: 'Twin' }
              : { playerId: accountId(`${seed}-${index}`), name: `${seed}${index}` },
          overrides: { createdAt: iso(now - ago) },
        });
      await ingest(twin('twin-old', 'twin-a', 3 * HOUR));
      await ingest(twin('twin-new', 'twin-b', 30 * 60_000));
      // A console player, invisible on the PC platform.
      await ingest(
        makeMatchInput({
          seed: 'console',
          rosters: 1,
          player: ({ index }) => ({ playerId: accountId(`console-${index}`), name: `Pad${index}` }),
          overrides: {
            createdAt: iso(now - HOUR),
            platformShard: 'console-a',
            regionShard: 'console-a-eu',
          },
        }),
      );
    });
    after(() => t.close());

    test('a key is required: 401 without one and with a wrong one', async () => {
      for (const headers of [{} as Record<string, string>, { authorization: 'Bearer not-a-key' }]) {
        for (const url of [
          '/shards/pc-b/players?filter[playerNames]=Player0',
          `/shards/pc-b/players/${accountId(0)}`,
        ]) {
          const response = await get(url, headers);
          assert.equal(response.statusCode, 401, url);
          assert.deepEqual(response.json(), {
            errors: [{ title: 'Unauthorized', detail: 'API key invalid or missing' }],
          });
        }
      }
    });

    test('search by names: players with their matches newest first, data always an array', async () => {
      const response = await get('/shards/pc-b/players?filter[playerNames]=Player1,Player0');
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers.deprecation, undefined);
      const body = response.json();
      assert.deepEqual(
        body.data.map((p: { id: string }) => p.id),
        [accountId(1), accountId(0)],
      );
      const [player] = body.data;
      assert.deepEqual(player, {
        type: 'player',
        id: accountId(1),
        attributes: {
          name: 'Player1',
          stats: null,
          titleId: 'pubg',
          shardId: 'pc-b',
          patchVersion: '',
          banType: 'Innocent',
          clanId: '',
        },
        relationships: {
          assets: { data: [] },
          matches: {
            data: [
              { type: 'match', id: matchIds.newer },
              { type: 'match', id: matchIds.older },
            ],
          },
        },
        links: { self: `${TEST_BASE_URL}/shards/pc-b/players/${accountId(1)}`, schema: '' },
      });
      assert.deepEqual(body.links, {
        self: `${TEST_BASE_URL}/shards/pc-b/players?filter[playerNames]=Player1,Player0`,
      });
      assert.deepEqual(body.meta, {});

      const single = (await get('/shards/pc-b/players?filter[playerNames]=Player2')).json();
      assert.ok(Array.isArray(single.data));
      assert.equal(single.data.length, 1);
    });

    test('search by ids, leaving out ids not found', async () => {
      const ids = [accountId(3), accountId('nobody'), accountId(2)].join(',');
      const response = await get(`/shards/pc-b/players?filter[playerIds]=${ids}`);
      assert.equal(response.statusCode, 200);
      assert.deepEqual(
        response.json().data.map((p: { attributes: { name: string } }) => p.attributes.name),
        ['Player3', 'Player2'],
      );
    });

    test('names are case-sensitive and partial hits leave out the misses', async () => {
      const partial = await get('/shards/pc-b/players?filter[playerNames]=player0,Player0,PLAYER1');
      assert.equal(partial.statusCode, 200);
      assert.deepEqual(
        partial.json().data.map((p: { attributes: { name: string } }) => p.attributes.name),
        ['Player0'],
      );
      const none = await get('/shards/pc-b/players?filter[playerNames]=player0');
      assert.equal(none.statusCode, 404);
    });

    test('no player found: the exact 404 of the real service', async () => {
      for (const url of [
        '/shards/pc-b/players?filter[playerNames]=Nobody,Noone',
        `/shards/pc-b/players?filter[playerIds]=${accountId('nobody')}`,
        '/shards/pc-b/players?filter[playerNames]=Pad0',
      ]) {
        const response = await get(url);
        assert.equal(response.statusCode, 404, url);
        assert.deepEqual(response.json(), NOT_FOUND_BODY);
      }
    });

    test('filters: exactly one, at most ten values', async () => {
      const both = await get(
        `/shards/pc-b/players?filter[playerNames]=Player0&filter[playerIds]=${accountId(0)}`,
      );
      assert.equal(both.statusCode, 400);
      assert.equal(both.json().errors[0].title, 'Bad Request');

      const neither = await get('/shards/pc-b/players');
      assert.equal(neither.statusCode, 400);
      assert.match(neither.json().errors[0].detail, /filter\[playerNames\]/);
      assert.match(neither.json().errors[0].detail, /filter\[playerIds\]/);

      const eleven = Array.from({ length: 11 }, (_, i) => `Player${i}`).join(',');
      const tooMany = await get(`/shards/pc-b/players?filter[playerNames]=${eleven}`);
      assert.equal(tooMany.statusCode, 400);
      assert.match(tooMany.json().errors[0].detail, /at most 10/);

      const ten = Array.from({ length: 10 }, (_, i) => `Player${i}`).join(',');
      const atLimit = await get(`/shards/pc-b/players?filter[playerNames]=${ten}`);
      assert.equal(atLimit.statusCode, 200);
      assert.equal(atLimit.json().data.length, 4);
    });

    test('two accounts with one name: the most recently seen is returned', async () => {
      const body = (await get('/shards/pc-b/players?filter[playerNames]=Twin')).json();
      assert.deepEqual(
        body.data.map((p: { id: string }) => p.id),
        [accountId('twin-new')],
      );
    });

    test('platforms are separate: console players on their own shard only', async () => {
      const body = (await get('/shards/console-a/players?filter[playerNames]=Pad0')).json();
      assert.equal(body.data[0].id, accountId('console-0'));
      assert.equal(body.data[0].attributes.shardId, 'console-a');
    });

    test('one player by id: data is a single object', async () => {
      const response = await get(`/shards/pc-b/players/${accountId(0)}`);
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.equal(body.data.type, 'player');
      assert.equal(body.data.id, accountId(0));
      assert.equal(body.data.attributes.name, 'Player0');
      assert.deepEqual(
        body.data.relationships.matches.data.map((m: { id: string }) => m.id),
        [matchIds.newer, matchIds.older],
      );
      assert.deepEqual(body.links, {
        self: `${TEST_BASE_URL}/shards/pc-b/players/${accountId(0)}`,
      });
      assert.deepEqual(body.meta, {});
    });

    test('an unknown account id is a 404 JSON:API error', async () => {
      const response = await get(`/shards/pc-b/players/${accountId('nobody')}`);
      assert.equal(response.statusCode, 404);
      assert.equal(response.json().errors[0].title, 'Not Found');
      assert.equal(response.json().data, undefined);
    });

    test('a platform-region shard is answered as its platform, with a Deprecation header', async () => {
      for (const url of [
        '/shards/pc-eu/players?filter[playerNames]=Player0',
        `/shards/pc-na/players/${accountId(0)}`,
      ]) {
        const response = await get(url);
        assert.equal(response.statusCode, 200, url);
        assert.equal(response.headers.deprecation, 'true', url);
        const body = response.json();
        const player = Array.isArray(body.data) ? body.data[0] : body.data;
        assert.equal(player.id, accountId(0));
        assert.equal(player.attributes.shardId, 'pc-b');
        assert.equal(player.links.self, `${TEST_BASE_URL}/shards/pc-b/players/${accountId(0)}`);
        assert.equal(body.links.self, `${TEST_BASE_URL}${url}`);
      }
    });

    test('aliases: a response spells shards the way the request did', async () => {
      const response = await get('/shards/steam/players?filter[playerNames]=Player0');
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers.deprecation, undefined);
      const [player] = response.json().data;
      assert.equal(player.attributes.shardId, 'steam');
      assert.equal(player.links.self, `${TEST_BASE_URL}/shards/steam/players/${accountId(0)}`);

      const regional = await get('/shards/psn-eu/players?filter[playerNames]=Pad0');
      assert.equal(regional.headers.deprecation, 'true');
      assert.equal(regional.json().data[0].attributes.shardId, 'psn');
    });

    test('an unknown shard is a 404 naming it', async () => {
      for (const url of [
        '/shards/foo/players?filter[playerNames]=Player0',
        `/shards/foo/players/${accountId(0)}`,
      ]) {
        const response = await get(url);
        assert.equal(response.statusCode, 404);
        assert.deepEqual(response.json(), {
          errors: [{ title: 'Not Found', detail: "Unknown shard 'foo'" }],
        });
      }
    });

    test('match lists hold only the retention window: one match just inside, one just outside', async () => {
      // The older match was two hours before `now`, the newer one hour; move to where the window
      // (14 days) starts ninety minutes before the original `now`.
      t.clock.set(now + 14 * DAY - 90 * 60_000);
      try {
        const body = (await get(`/shards/pc-b/players/${accountId(0)}`)).json();
        assert.deepEqual(
          body.data.relationships.matches.data.map((m: { id: string }) => m.id),
          [matchIds.newer],
        );
        t.clock.set(now + 15 * DAY);
        const idle = await get(`/shards/pc-b/players/${accountId(0)}`);
        assert.equal(idle.statusCode, 200, 'a player without recent matches still exists');
        assert.deepEqual(idle.json().data.relationships.matches.data, []);
      } finally {
        t.clock.set(now);
      }
    });

    test(
      'documents have the shape of the recorded responses',
      { skip: !HAVE_FIXTURES },
      async () => {
        // The 2019 recordings still carry createdAt/updatedAt (since removed) and predate banType/clanId.
        const list = (await get('/shards/steam/players?filter[playerNames]=Player0')).json();
        assertSameShape(list, loadFixture('players/pubg-python--tests-players_response.json'), {
          extra: ['data[].attributes.banType', 'data[].attributes.clanId'],
          missing: ['data[].attributes.createdAt', 'data[].attributes.updatedAt'],
        });
        const one = (await get(`/shards/steam/players/${accountId(0)}`)).json();
        assertSameShape(one, loadFixture('player/pubg-python--tests-player_response.json'), {
          extra: ['data.attributes.banType', 'data.attributes.clanId'],
        });
        const notFound = (await get('/shards/steam/players?filter[playerNames]=Nobody')).json();
        assertSameShape(notFound, loadFixture('errors/pubg.js--test-Players-responses-404.json'), {
          extra: ['errors[].detail'],
        });
      },
    );
  });
}
