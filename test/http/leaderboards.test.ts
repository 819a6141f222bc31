import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import { HAVE_FIXTURES, assertSameShape, loadFixture } from '../helpers/fixture-shapes.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { rebuildLeaderboards } from '../../src/jobs/rebuild-leaderboards.ts';

const MINUTE = 60_000;
const SEASON = 'division.bro.official.pc-2018-45';
const REGIONS = ['pc-eu', 'pc-na', 'pc-as'] as const;
/** Twelve squad matches of 100 distinct players each, the regions taking turns: 400 per region. */
const MATCHES = 12;
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const playerOf = (match: number, seat: number): string => accountId(`lb-${match}-${seat}`);

interface Entry {
  type: string;
  id: string;
  attributes: {
    name: string;
    rank: number;
    stats: Record<string, number | string>;
  };
}
interface Board {
  data: {
    type: string;
    id: string;
    attributes: { shardId: string; gameMode: string; seasonId: string };
    relationships: { players: { data: Array<{ type: string; id: string }> } };
  };
  included: Entry[];
  links: Record<string, string>;
  meta: object;
}

async function playSquads(t: TestApp): Promise<void> {
  for (let m = 0; m < MATCHES; m++) {
    await ingestMatch(
      t,
      makeMatchInput({
        seed: `lb-${m}`,
        rosters: 25,
        playersPerRoster: 4,
        winner: (m * 7) % 25,
        player: (seat) => ({ playerId: playerOf(m, seat.index), name: `P${m}x${seat.index}` }),
        stats: (seat) => ({
          kills: (seat.index * 3 + m) % 7,
          damageDealt: 50 + ((seat.index * 37 + m * 11) % 400),
        }),
        overrides: {
          createdAt: iso(t.clock.now() - (MATCHES - m) * 30 * MINUTE),
          regionShard: REGIONS[m % REGIONS.length]!,
        },
      }),
    );
  }
}

const ranks = (board: Board): number[] => board.included.map((p) => p.attributes.rank);

for (const database of testDatabases) {
  describe(`[${database.name}] leaderboards`, () => {
    let t: TestApp;
    const get = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ url, headers: { ...t.auth, ...headers } });
    const board = async (url: string): Promise<Board> => {
      const response = await get(url);
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    };

    before(async () => {
      t = await createTestApp(database);
      await playSquads(t);
      await rebuildLeaderboards(t);
    });
    after(async () => {
      await t.close();
    });

    test('ten pages of 100 with consecutive ranks make the top 1000', async () => {
      const seen = new Set<string>();
      let previousPoints = Infinity;
      for (let page = 0; page <= 9; page++) {
        const doc = await board(`/shards/pc-b/leaderboards/squad?page[number]=${page}`);
        assert.deepEqual(
          ranks(doc),
          Array.from({ length: 100 }, (_, i) => page * 100 + i + 1),
        );
        assert.deepEqual(
          doc.data.relationships.players.data,
          doc.included.map((p) => ({ type: 'player', id: p.id })),
        );
        for (const player of doc.included) {
          assert.ok(!seen.has(player.id), 'no player twice');
          seen.add(player.id);
          assert.ok(Number(player.attributes.stats.rankPoints) <= previousPoints);
          previousPoints = Number(player.attributes.stats.rankPoints);
        }
        assert.equal(
          doc.links.self,
          `${TEST_BASE_URL}/shards/pc-b/leaderboards/squad?page[number]=${page}`,
        );
        assert.equal(doc.links.next, undefined, 'no paging links: the real service has none');
      }
      assert.equal(seen.size, 1000);
    });

    test('page 0 is the default; the document has the real service shape', async () => {
      const doc = await board('/shards/pc-b/leaderboards/squad');
      const first = await board('/shards/pc-b/leaderboards/squad?page[number]=0');
      assert.deepEqual(doc.included, first.included);
      assert.equal(doc.data.type, 'leaderboard');
      assert.deepEqual(doc.data.attributes, {
        shardId: 'pc-b',
        gameMode: 'squad',
        seasonId: SEASON,
      });
      assert.equal(doc.links.self, `${TEST_BASE_URL}/shards/pc-b/leaderboards/squad`);
      assert.deepEqual(doc.meta, {});
      const top = doc.included[0]!;
      assert.equal(top.type, 'player');
      const stats = top.attributes.stats;
      assert.equal(stats.killDeathRatio, 0);
      assert.equal(stats.kda, 0);
      assert.ok(Number.isInteger(stats.rankPoints) && Number.isInteger(stats.averageDamage));
      assert.equal(typeof stats.subTier, 'string');
      assert.equal(stats.games, 1);
      assert.equal(stats.winRatio, Number(stats.wins) / Number(stats.games));
      if (HAVE_FIXTURES) {
        const recorded = loadFixture(
          'leaderboard/pubgkt--leaderboards-src-commonTest-resources-leaderboard_response.json',
        );
        assertSameShape(doc, recorded);
      }
    });

    test('page[number] outside 0–9 is a 400 that says the range', async () => {
      assert.equal((await get('/shards/pc-b/leaderboards/squad?page[number]=9')).statusCode, 200);
      for (const bad of ['10', '-1', 'abc', '1.5', '', '1e1']) {
        const response = await get(`/shards/pc-b/leaderboards/squad?page[number]=${bad}`);
        assert.equal(response.statusCode, 400, `page[number]=${bad}`);
        const [error] = response.json().errors;
        assert.equal(error.title, 'Bad Request');
        assert.match(error.detail, /page\[number\] must be an integer from 0 to 9/);
      }
    });

    test('only PC platform shards and the six standard modes have leaderboards', async () => {
      for (const shard of ['console-a', 'psn', 'tournament']) {
        const response = await get(`/shards/${shard}/leaderboards/squad`);
        assert.equal(response.statusCode, 400, shard);
        assert.match(response.json().errors[0].detail, new RegExp(`PC shards only.*'${shard}'`));
      }
      const region = await get('/shards/pc-eu/leaderboards/squad');
      assert.equal(region.statusCode, 400);
      assert.match(region.json().errors[0].detail, /platform shard such as 'pc-b'.*'pc-eu'/);
      const unknown = await get('/shards/pc-zz/leaderboards/squad');
      assert.equal(unknown.statusCode, 404);
      assert.match(unknown.json().errors[0].detail, /pc-zz/);
      for (const mode of ['tdm', 'normal-squad', 'SQUAD']) {
        const response = await get(`/shards/pc-b/leaderboards/${mode}`);
        assert.equal(response.statusCode, 404, mode);
        assert.match(response.json().errors[0].detail, new RegExp(`'${mode}'`));
      }
      const kakao = await board('/shards/kakao/leaderboards/squad');
      assert.equal(kakao.data.attributes.shardId, 'kakao');
      assert.deepEqual(kakao.included, [], 'no pc-a player played');
    });

    test('an alias spells the shard its way', async () => {
      const doc = await board('/shards/steam/leaderboards/squad?page[number]=1');
      assert.equal(doc.data.attributes.shardId, 'steam');
      assert.equal(
        doc.links.self,
        `${TEST_BASE_URL}/shards/steam/leaderboards/squad?page[number]=1`,
      );
      assert.deepEqual(
        ranks(doc),
        ranks(await board('/shards/pc-b/leaderboards/squad?page[number]=1')),
      );
    });

    test('the region form lists the top of one region, ranked within it in the build order', async () => {
      const platform: string[] = [];
      for (let page = 0; page <= 9; page++) {
        platform.push(
          ...(await board(`/shards/pc-b/leaderboards/squad?page[number]=${page}`)).included.map(
            (p) => p.id,
          ),
        );
      }
      const doc = await board(`/shards/pc-eu/leaderboards/${SEASON}/squad`);
      assert.deepEqual(doc.data.attributes, {
        shardId: 'pc-eu',
        gameMode: 'squad',
        seasonId: SEASON,
      });
      assert.equal(doc.links.self, `${TEST_BASE_URL}/shards/pc-eu/leaderboards/${SEASON}/squad`);
      const euPlayers = new Set<string>();
      for (let m = 0; m < MATCHES; m += REGIONS.length) {
        for (let seat = 0; seat < 100; seat++) euPlayers.add(playerOf(m, seat));
      }
      // Every pc-eu player, also those beyond the platform's top 1000.
      assert.equal(doc.included.length, 400);
      assert.deepEqual(
        ranks(doc),
        Array.from({ length: 400 }, (_, i) => i + 1),
      );
      for (const p of doc.included) assert.ok(euPlayers.has(p.id), `${p.id} played in pc-eu`);
      const onPlatform = doc.included.map((p) => p.id).filter((id) => platform.includes(id));
      assert.ok(onPlatform.length < 400, 'some are ranked beyond 1000 on the platform');
      assert.deepEqual(
        onPlatform,
        platform.filter((id) => euPlayers.has(id)),
        'in the platform order',
      );
      const eu = await board(`/shards/pc-eu/leaderboards/${SEASON}/squad`);
      assert.deepEqual(eu, doc);
      const jp = await board(`/shards/pc-jp/leaderboards/${SEASON}/squad`);
      assert.deepEqual(jp.included, []);
    });

    test('the region form takes PC platform-region shards and the current season only', async () => {
      const onPlatform = await get(`/shards/pc-b/leaderboards/${SEASON}/squad`);
      assert.equal(onPlatform.statusCode, 400);
      assert.match(onPlatform.json().errors[0].detail, /platform-region shard.*'pc-b'/);
      assert.equal(
        (await get(`/shards/console-a-eu/leaderboards/${SEASON}/squad`)).statusCode,
        400,
      );
      assert.equal((await get(`/shards/pc-a/leaderboards/${SEASON}/squad`)).statusCode, 200);
      const older = await get('/shards/pc-eu/leaderboards/division.bro.official.pc-2018-44/squad');
      assert.equal(older.statusCode, 404);
      assert.match(
        older.json().errors[0].detail,
        /current season only \('division\.bro\.official\.pc-2018-45'\)/,
      );
      const unknown = await get('/shards/pc-eu/leaderboards/division.bro.official.nope/squad');
      assert.equal(unknown.statusCode, 404);
      assert.match(
        unknown.json().errors[0].detail,
        /Unknown season 'division\.bro\.official\.nope'/,
      );
      assert.equal((await get(`/shards/pc-eu/leaderboards/${SEASON}/tdm`)).statusCode, 404);
    });

    test('keyed and rate limited', async () => {
      const anonymous = await t.app.inject({ url: '/shards/pc-b/leaderboards/squad' });
      assert.equal(anonymous.statusCode, 401);
      assert.equal(anonymous.json().errors[0].title, 'Unauthorized');
      const response = await get('/shards/pc-b/leaderboards/squad');
      for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        assert.match(String(response.headers[header]), /^\d+$/, header);
      }
    });

    test('served as stored bytes with an ETag, gzip as asked, 304 when current', async () => {
      const plain = await get('/shards/pc-b/leaderboards/squad?page[number]=3');
      const etag = String(plain.headers.etag);
      assert.match(etag, /^"[^"]+"$/);
      assert.equal(plain.headers['content-type'], 'application/vnd.api+json');
      const again = await get('/shards/pc-b/leaderboards/squad?page[number]=3');
      assert.equal(again.body, plain.body);
      assert.equal(again.headers.etag, etag);

      const gzipped = await get('/shards/pc-b/leaderboards/squad?page[number]=3', {
        'accept-encoding': 'gzip',
      });
      assert.equal(gzipped.headers['content-encoding'], 'gzip');
      assert.notEqual(gzipped.headers.etag, etag);
      assert.equal(zlib.gunzipSync(gzipped.rawPayload).toString(), plain.body);

      const notModified = await get('/shards/pc-b/leaderboards/squad?page[number]=3', {
        'if-none-match': etag,
      });
      assert.equal(notModified.statusCode, 304);
      assert.equal(notModified.body, '');
      assert.equal(notModified.headers.etag, etag);
      const otherPage = await get('/shards/pc-b/leaderboards/squad?page[number]=4', {
        'if-none-match': etag,
      });
      assert.equal(otherPage.statusCode, 200);
      const json = await get('/shards/pc-b/leaderboards/squad?page[number]=3', {
        accept: 'application/json',
      });
      assert.equal(json.headers['content-type'], 'application/json');
      assert.equal(json.body, plain.body);
    });
  });

  test(`[${database.name}] cacheable until the next rebuild; a rebuild is served at once after it`, async () => {
    const t = await createTestApp(database);
    try {
      const get = (url: string) => t.app.inject({ url, headers: t.auth });
      const before = await get('/shards/pc-b/leaderboards/duo');
      assert.equal(before.statusCode, 200, 'no build yet: an empty page, not an error');
      assert.deepEqual(before.json().included, []);
      assert.deepEqual(before.json().data.relationships.players.data, []);
      assert.equal(before.headers['cache-control'], 'public, max-age=10');

      await ingestMatch(
        t,
        makeMatchInput({ seed: 'c1', overrides: { createdAt: iso(t.clock.now() - 40 * MINUTE) } }),
      );
      t.clock.advance(10_000);
      await rebuildLeaderboards(t);
      const built = await get('/shards/pc-b/leaderboards/duo');
      assert.equal(built.headers['cache-control'], 'public, max-age=7200');
      const firstId = built.json().data.id;
      assert.notEqual(firstId, before.json().data.id);
      assert.equal(built.json().included.length, 4);

      t.clock.advance(30 * MINUTE);
      const later = await get('/shards/pc-b/leaderboards/duo');
      assert.equal(later.headers['cache-control'], 'public, max-age=5400');
      assert.equal(later.body, built.body);

      // Overdue: the same build, cacheable only briefly while the job catches up.
      t.clock.advance(90 * MINUTE);
      const overdue = await get('/shards/pc-b/leaderboards/duo');
      assert.equal(overdue.json().data.id, firstId);
      assert.equal(overdue.headers['cache-control'], 'public, max-age=10');

      await rebuildLeaderboards(t);
      t.clock.advance(10_000);
      const rebuilt = await get('/shards/pc-b/leaderboards/duo');
      assert.notEqual(rebuilt.json().data.id, firstId);
      assert.equal(rebuilt.headers['cache-control'], 'public, max-age=7190');
    } finally {
      await t.close();
    }
  });

  test(`[${database.name}] an early rebuild in this process is served at once, never a page of the replaced build`, async () => {
    const t = await createTestApp(database);
    try {
      const get = (url: string) => t.app.inject({ url, headers: t.auth });
      await ingestMatch(
        t,
        makeMatchInput({ seed: 'r1', overrides: { createdAt: iso(t.clock.now() - 40 * MINUTE) } }),
      );
      await rebuildLeaderboards(t);
      const first = (await get('/shards/pc-b/leaderboards/duo')).json();
      // `gamedata jobs run` in this process, long before the build expires: its tag is heard.
      await rebuildLeaderboards(t);
      const second = (await get('/shards/pc-b/leaderboards/duo')).json();
      assert.notEqual(second.data.id, first.data.id, 'the new build, without waiting');
      assert.deepEqual(second.included, first.included);

      await rebuildLeaderboards(t);
      const other = await get('/shards/pc-b/leaderboards/duo?page[number]=0');
      assert.equal(other.statusCode, 200);
      const third = other.json();
      assert.notEqual(third.data.id, second.data.id);
      assert.deepEqual(third.included, first.included);
    } finally {
      await t.close();
    }
  });
}
