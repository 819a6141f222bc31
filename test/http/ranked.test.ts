import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput, type Seat } from '../helpers/matches.ts';
import { HAVE_FIXTURES, assertSameShape, loadFixture } from '../helpers/fixture-shapes.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import type { MatchInput, ParticipantStatsInput } from '../../src/ingest/match-input.ts';
import { listSeasons } from '../../src/store/seasons.ts';
import { seasonAt } from '../../src/domain/seasons.ts';
import { START_RANK_POINTS } from '../../src/domain/ranked-points.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const HERO = accountId('ranked-hero');
/** Plays the hero's ranked matches again, with the same results, ingested in another order. */
const TWIN = accountId('ranked-twin');
const CASUAL = accountId('ranked-casual');
const FLOOR = accountId('ranked-floor');

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

type RankedDoc = {
  data: {
    type: string;
    id?: string;
    attributes: { rankedGameModeStats: Record<string, Record<string, unknown>> };
    relationships: Record<string, { data: { type: string; id: string } }>;
  };
  links: { self: string };
  meta: object;
};

interface Placing {
  /** 1 (the winning squad) or 16 (the last of 16 squads). */
  place: 1 | 16;
  stats: Partial<ParticipantStatsInput>;
  gameMode?: 'squad' | 'squad-fpp';
  matchType?: MatchInput['matchType'];
}

/** A match of 16 squads of 4 in which `player` places as asked; the others are strangers. */
function squadMatch(seed: string, at: number, player: string, placing: Placing): MatchInput {
  const heroRoster = placing.place === 1 ? 0 : 15;
  const isPlayer = (seat: Seat) => seat.roster === heroRoster && seat.member === 0;
  return makeMatchInput({
    seed,
    rosters: 16,
    playersPerRoster: 4,
    winner: 0,
    player: (seat) =>
      isPlayer(seat)
        ? { playerId: player, name: player.slice(8, 16) }
        : { playerId: accountId(`${seed}-${seat.index}`), name: `S${seed}-${seat.index}` },
    stats: (seat) => (isPlayer(seat) ? placing.stats : {}),
    overrides: {
      createdAt: iso(at),
      matchType: placing.matchType ?? 'competitive',
      gameMode: placing.gameMode ?? 'squad',
    },
  });
}

const WIN: Placing = { place: 1, stats: { kills: 3, assists: 2, DBNOs: 4, damageDealt: 410.5 } };
const LOSS: Placing = { place: 16, stats: { kills: 1, assists: 0, DBNOs: 1, damageDealt: 95.25 } };

for (const database of testDatabases) {
  describe(`ranked stats (${database.name})`, () => {
    let t: TestApp;
    let now: number;
    let season: string;
    let preRankedSeason: string;
    const matches: Record<string, MatchInput> = {};
    const ingest = (input: MatchInput) =>
      ingestMatch({ store: t.store, blobs: t.blobs, config: t.config, clock: t.clock }, input);
    const get = (url: string, headers: Record<string, string> = t.auth) =>
      t.app.inject({ url, headers });
    const rankedUrl = (player: string, seasonId = season, shard = 'pc-b') =>
      `/shards/${shard}/players/${player}/seasons/${seasonId}/ranked`;
    const getDoc = async (url: string): Promise<RankedDoc> => {
      const response = await get(url);
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      return response.json();
    };

    before(async () => {
      t = await createTestApp(database);
      now = t.clock.now();
      const seasons = await listSeasons(t.store.db, 'pc-b');
      season = seasonAt(seasons, now)!.id;
      preRankedSeason = 'division.bro.official.pc-2018-06';
      assert.ok(now - seasonAt(seasons, now)!.startsAt! > 6 * HOUR, 'one season for the test');

      matches.win = squadMatch('win', now - 4 * HOUR, HERO, WIN);
      matches.loss = squadMatch('loss', now - 3 * HOUR, HERO, LOSS);
      matches.fpp = squadMatch('fpp', now - 2 * HOUR, HERO, { ...WIN, gameMode: 'squad-fpp' });
      matches.official = squadMatch('official', now - HOUR, HERO, {
        ...WIN,
        matchType: 'official',
      });
      matches.casual = squadMatch('casual', now - HOUR, CASUAL, { ...WIN, matchType: 'official' });
      // The twin's matches are the hero's two squad matches again, ingested newest first.
      matches.twinLoss = squadMatch('twin-loss', now - 3 * HOUR, TWIN, LOSS);
      matches.twinWin = squadMatch('twin-win', now - 4 * HOUR, TWIN, WIN);
      for (const match of Object.values(matches)) await ingest(match);
    });
    after(() => t.close());

    test('a key is required and the requests are rate limited', async () => {
      const response = await get(rankedUrl(HERO), {});
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().errors[0].title, 'Unauthorized');
      const keyed = await get(rankedUrl(HERO));
      assert.ok(keyed.headers['x-ratelimit-limit'], 'rate-limit headers');
      assert.ok(keyed.headers['x-ratelimit-remaining']);
    });

    test('the document: rankedplayerstats without an id, the modes played, links and meta', async () => {
      const doc = await getDoc(rankedUrl(HERO));
      assert.equal(doc.data.type, 'rankedplayerstats');
      assert.equal('id' in doc.data, false);
      assert.deepEqual(Object.keys(doc.data.attributes.rankedGameModeStats), [
        'squad',
        'squad-fpp',
      ]);
      assert.deepEqual(doc.data.relationships, {
        player: { data: { type: 'player', id: HERO } },
        season: { data: { type: 'season', id: season } },
      });
      assert.deepEqual(doc.links, { self: `${TEST_BASE_URL}${rankedUrl(HERO)}` });
      assert.deepEqual(doc.meta, {});
    });

    test('stats by hand: a win raises the points, a last place lowers them, counters add up', async () => {
      const squad = (await getDoc(rankedUrl(HERO))).data.attributes.rankedGameModeStats.squad!;
      // 1500 + 50 (win) + 15 (3 kills) = 1565; then − 25 (16th) + 5 (1 kill) = 1545.
      assert.ok(START_RANK_POINTS + 50 + 15 > START_RANK_POINTS, 'a ranked win raises rank points');
      assert.equal(squad.currentRankPoint, 1545);
      assert.equal(squad.bestRankPoint, 1565);
      assert.deepEqual(squad.currentTier, { tier: 'Silver', subTier: '3' });
      assert.deepEqual(squad.bestTier, { tier: 'Silver', subTier: '3' });
      assert.equal(squad.roundsPlayed, 2);
      assert.equal(squad.wins, 1);
      assert.equal(squad.kills, 4);
      assert.equal(squad.deaths, 1);
      assert.equal(squad.assists, 2);
      assert.equal(squad.dBNOs, 5);
      assert.equal(squad.damageDealt, 505.75);
      assert.equal(squad.avgRank, 8.5);
      assert.equal(squad.top10Ratio, 0.5);
      assert.equal(squad.winRatio, 0.5);
      assert.equal(squad.kda, 6);
      assert.equal(squad.avgKill, 2);
      for (const deprecated of ['kdr', 'avgSurvivalTime', 'roundMostKills', 'killStreak']) {
        assert.equal(squad[deprecated], 0, deprecated);
      }
      const fpp = (await getDoc(rankedUrl(HERO))).data.attributes.rankedGameModeStats['squad-fpp']!;
      assert.equal(fpp.currentRankPoint, START_RANK_POINTS + 65);
      assert.equal(fpp.roundsPlayed, 1);
    });

    test('a match ingested out of order is folded in match order', async () => {
      const hero = (await getDoc(rankedUrl(HERO))).data.attributes.rankedGameModeStats.squad;
      const twin = (await getDoc(rankedUrl(TWIN))).data.attributes.rankedGameModeStats.squad;
      assert.deepEqual(
        twin,
        hero,
        'the same results give the same stats whatever the ingest order',
      );
    });

    test('players without ranked play, seasons before ranked, unknown seasons and players', async () => {
      const casual = await getDoc(rankedUrl(CASUAL));
      assert.deepEqual(casual.data.attributes.rankedGameModeStats, {});
      assert.equal(casual.data.relationships.player!.data.id, CASUAL);
      const before7 = await getDoc(rankedUrl(HERO, preRankedSeason));
      assert.deepEqual(before7.data.attributes.rankedGameModeStats, {});
      assert.equal(before7.data.relationships.season!.data.id, preRankedSeason);

      for (const url of [
        rankedUrl(HERO, 'division.bro.official.pc-2099-01'),
        rankedUrl(HERO, 'lifetime'),
        rankedUrl(accountId('nobody')),
      ]) {
        const response = await get(url);
        assert.equal(response.statusCode, 404, url);
        assert.equal(response.json().errors[0].title, 'Not Found');
      }
      const region = await get(rankedUrl(HERO, season, 'pc-eu'));
      assert.equal(region.statusCode, 400);
      assert.match(region.json().errors[0].detail, /platform shard/);
    });

    test('vendor shard names are answered like the spec names', async () => {
      const steam = await getDoc(rankedUrl(HERO, season, 'steam'));
      const pcB = await getDoc(rankedUrl(HERO));
      assert.deepEqual(steam.data, pcB.data);
      assert.equal(steam.links.self, `${TEST_BASE_URL}${rankedUrl(HERO, season, 'steam')}`);
    });

    test('ranked matches count toward season stats and their match lists', async () => {
      const response = await get(`/shards/pc-b/players/${HERO}/seasons/${season}`);
      const doc = response.json();
      const squad = doc.data.attributes.gameModeStats.squad;
      assert.equal(squad.roundsPlayed, 3, 'two ranked squad matches and one official');
      assert.equal(doc.data.attributes.gameModeStats['squad-fpp'].roundsPlayed, 1);
      const listed = doc.data.relationships.matchesSquad.data.map((m: { id: string }) => m.id);
      assert.deepEqual(listed, [matches.official!.id, matches.loss!.id, matches.win!.id]);
    });

    test('the OpenAPI document describes the route', async () => {
      const document = (await t.app.inject({ url: '/openapi.json' })).json();
      const route = document.paths['/shards/{shard}/players/{accountId}/seasons/{seasonId}/ranked'];
      assert.equal(route.get.operationId, 'getRankedStats');
      assert.deepEqual(
        route.get.parameters.map((parameter: { name: string }) => parameter.name),
        ['shard', 'accountId', 'seasonId'],
      );
    });

    test(
      'the shape of a recorded ranked document, member by member',
      { skip: !HAVE_FIXTURES },
      async () => {
        const recorded = loadFixture(
          'ranked/pubgkt--RankedFixtures.kt.RANKED_RESPONSE_JSON.extracted.json',
        ) as RankedDoc;
        const ours = await getDoc(rankedUrl(HERO));
        assertSameShape(ours, recorded, {
          extra: ['data.attributes.rankedGameModeStats.squad-fpp'],
        });
        assert.deepEqual(
          Object.keys(ours.data.attributes.rankedGameModeStats.squad!),
          Object.keys(recorded.data.attributes.rankedGameModeStats.squad!),
          'members in the recorded order',
        );
      },
    );
  });

  describe(`ranked points floor (${database.name})`, () => {
    let t: TestApp;
    after(() => t.close());

    test('points never go below 0, however many last places', async () => {
      t = await createTestApp(database);
      const now = t.clock.now();
      const deps = { store: t.store, blobs: t.blobs, config: t.config, clock: t.clock };
      // 17 squads of one: last place scores −25, so 61 of them take 1500 points to the floor.
      for (let k = 0; k < 61; k++) {
        await ingestMatch(
          deps,
          makeMatchInput({
            seed: `floor-${k}`,
            rosters: 17,
            playersPerRoster: 1,
            winner: 0,
            player: (seat) =>
              seat.roster === 16
                ? { playerId: FLOOR, name: 'Floor' }
                : { playerId: accountId(`floor-${seat.roster}`), name: `F${seat.roster}` },
            stats: (seat) => (seat.roster === 16 ? { kills: 0 } : {}),
            overrides: {
              createdAt: iso(now - 5 * HOUR + k * MINUTE),
              gameMode: 'squad',
              matchType: 'competitive',
            },
          }),
        );
      }
      const seasons = await listSeasons(t.store.db, 'pc-b');
      const response = await t.app.inject({
        url: `/shards/pc-b/players/${FLOOR}/seasons/${seasonAt(seasons, now)!.id}/ranked`,
        headers: t.auth,
      });
      const squad = response.json().data.attributes.rankedGameModeStats.squad;
      assert.equal(squad.roundsPlayed, 61);
      assert.equal(squad.currentRankPoint, 0);
      assert.deepEqual(squad.currentTier, { tier: 'Bronze', subTier: '5' });
      assert.equal(squad.bestRankPoint, START_RANK_POINTS - 25);
    });
  });
}
