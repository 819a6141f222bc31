/**
 * pubgkt (theodorosidmar/pubgkt, Kotlin Multiplatform on Ktor, 0.1.0-SNAPSHOT of 2026, the
 * `dev.pubgkt` packages), a Kotlin client that cannot be built here, replayed byte for byte
 * against a real port. Its host is a constant; its HTTP engine can be injected, which is how a
 * user points it elsewhere.
 *
 * What it sends: `Accept: application/json` and `Accept-Charset: UTF-8` (content negotiation),
 * `User-Agent: ktor-client`, `Content-Type: application/vnd.api+json` on every GET,
 * `Accept-Encoding: gzip`, and `Authorization: Bearer <key>` on everything but matches. Ktor
 * percent-encodes parameter names and values alike (`filter%5BplayerNames%5D=a%2Cb`). Season
 * leaderboards go to a platform-region shard (`/shards/pc-eu/leaderboards/<season>/<mode>`).
 *
 * What it needs back, read with `required*` helpers that throw: integers as integer literals
 * (`"600"`, never `600.5`), enums it maps by `valueOf(value.uppercase())` — `shardId` of a match
 * and `platform` of weapon mastery among STEAM/KAKAO/PSN/XBOX/STADIA/CONSOLE/TOURNAMENT, a
 * leaderboard's `shardId` among its platform regions, `matchType`, `mapName`, `seasonState`,
 * `deathType`, a player's `banType` (any case); all six modes of a season's stats with 31 stats
 * each; `bestRankPoint`; the 23 participant stats; the survival-mastery stats including
 * `uniqueItemsLooted`; and rate-limit headers that parse as Int/Long. (Its match `gameMode` enum
 * spells `SQUAD_FPP` with an underscore, so the vendor's `squad-fpp` already fails it: the match
 * here is a `squad` one.)
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { openClientWorld, type ClientWorld } from '../helpers/client-world.ts';
import { wireGet, type HeaderLines } from '../helpers/wire-request.ts';
import {
  INT_MODE_STATS,
  NUMBER_MODE_STATS,
  INT_PARTICIPANT_STATS,
  NUMBER_PARTICIPANT_STATS,
  SURVIVAL_STATS,
} from '../helpers/pubgkt-fields.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PLATFORMS = ['CONSOLE', 'KAKAO', 'PSN', 'STADIA', 'STEAM', 'TOURNAMENT', 'XBOX'];
const MATCH_TYPES = ['AIROYALE', 'ARCADE', 'CUSTOM', 'EVENT', 'OFFICIAL', 'SEASONAL', 'TRAINING'];
const MAPS = ['BALTIC_MAIN', 'DESERT_MAIN', 'DIHOROTOK_MAIN', 'ERANGEL_MAIN', 'RANGE_MAIN'];
const MORE_MAPS = ['SAVAGE_MAIN', 'SUMMERLAND_MAIN', 'TIGER_MAIN', 'NEON_MAIN'];
const DEATH_TYPES = ['ALIVE', 'BYPLAYER', 'BYZONE', 'SUICIDE', 'LOGOUT'];
const MODES = ['solo', 'duo', 'squad', 'solo-fpp', 'duo-fpp', 'squad-fpp'];

function ints(object: Json, keys: readonly string[], where: string): void {
  for (const key of keys) assert.ok(Number.isInteger(object[key]), `${where}.${key} is an Int`);
}
function numbers(object: Json, keys: readonly string[], where: string): void {
  for (const key of keys) assert.equal(typeof object[key], 'number', `${where}.${key} is a Double`);
}
function modeStats(stats: Json, where: string): void {
  ints(stats, INT_MODE_STATS, where);
  numbers(stats, NUMBER_MODE_STATS, where);
}

for (const database of testDatabases) {
  describe(`pubgkt's requests against the service (${database.name})`, () => {
    let world: ClientWorld;
    const ktorHeaders = (key?: string): HeaderLines => [
      ['Accept', 'application/json'],
      ['Accept-Charset', 'UTF-8'],
      ['User-Agent', 'ktor-client'],
      ['Content-Type', 'application/vnd.api+json'],
      ['Accept-Encoding', 'gzip'],
      ...(key ? [['Authorization', `Bearer ${key}`] as const] : []),
    ];
    const get = async (target: string, keyed = true): Promise<Json> => {
      const answer = await wireGet(
        world.port,
        target,
        ktorHeaders(keyed ? world.t.apiKey : undefined),
      );
      assert.equal(answer.status, 200, `${target}: ${answer.text}`);
      if (keyed) {
        assert.match(answer.headers['x-ratelimit-limit'] ?? '', /^\d+$/);
        assert.match(answer.headers['x-ratelimit-remaining'] ?? '', /^\d+$/);
        assert.match(answer.headers['x-ratelimit-reset'] ?? '', /^\d+$/);
      }
      return JSON.parse(answer.text) as Json;
    };

    before(async () => {
      world = await openClientWorld(database, 'pubgkt');
    });
    after(() => world.close());

    test('players by names and by ids: banType, titleId, shardId, match ids', async () => {
      const [first, second] = world.seats;
      for (const filter of [
        `filter%5BplayerNames%5D=${first!.name}%2C${second!.name}`,
        `filter%5BplayerIds%5D=${first!.playerId}%2C${second!.playerId}`,
      ]) {
        const players = await get(`/shards/steam/players?${filter}`);
        assert.equal(players.data.length, 2);
        for (const player of players.data as Json[]) {
          const { banType, name, titleId, shardId } = player.attributes;
          assert.ok(['innocent', 'temporaryban', 'permanentban'].includes(banType.toLowerCase()));
          for (const value of [name, titleId, shardId]) assert.equal(typeof value, 'string');
          assert.deepEqual(player.relationships.matches.data, [
            { type: 'match', id: world.match.id },
          ]);
        }
      }
    });

    test('seasons, season stats of all six modes, and the batch forms', async () => {
      const seasons = await get('/shards/steam/seasons');
      for (const season of seasons.data as Json[]) {
        assert.equal(typeof season.attributes.isCurrentSeason, 'boolean');
        assert.equal(typeof season.attributes.isOffseason, 'boolean');
      }
      const seat = world.seats[9]!;
      for (const season of [world.seasonId, 'lifetime']) {
        const stats = await get(`/shards/steam/players/${seat.playerId}/seasons/${season}`);
        const { attributes, relationships } = stats.data;
        assert.equal(typeof attributes.bestRankPoint, 'number');
        assert.equal(relationships.player.data.id, seat.playerId);
        assert.equal(relationships.season.data.id, season);
        for (const mode of MODES) modeStats(attributes.gameModeStats[mode], `${season} ${mode}`);
        assert.equal(attributes.gameModeStats.squad.kills, seat.stats.kills);
        const ids = `${seat.playerId}%2C${world.seats[0]!.playerId}`;
        const batch = await get(
          `/shards/steam/seasons/${season}/gameMode/squad/players?filter%5BplayerIds%5D=${ids}`,
        );
        for (const entry of batch.data as Json[])
          modeStats(entry.attributes.gameModeStats.squad, season);
      }
    });

    test("a region's season leaderboard: region, mode and Int stats", async () => {
      const board = await get(`/shards/pc-eu/leaderboards/${world.seasonId}/squad`);
      const { attributes } = board.data;
      assert.equal(attributes.seasonId, world.seasonId);
      assert.ok(MODES.includes(attributes.gameMode));
      assert.equal(attributes.shardId, 'pc-eu', 'a PlatformRegion name');
      const players = (board.included as Json[]).filter((item) => item.type === 'player');
      assert.equal(players.length, world.seats.length);
      for (const player of players) {
        assert.ok(Number.isInteger(player.attributes.rank));
        const { stats } = player.attributes;
        ints(stats, ['rankPoints', 'wins', 'games', 'averageDamage', 'kills', 'kda'], 'board');
        numbers(stats, ['averageRank', 'averageKill'], 'board');
        assert.equal(typeof stats.tier, 'string');
        assert.equal(typeof stats.subTier, 'string');
      }
    });

    test('a match, fetched without a key, parses into its enums and Int stats', async () => {
      const match = await get(`/shards/steam/matches/${world.match.id}`, false);
      const { attributes } = match.data;
      assert.ok(PLATFORMS.includes(attributes.shardId.toUpperCase()));
      assert.ok(MATCH_TYPES.includes(attributes.matchType.toUpperCase()));
      assert.ok([...MAPS, ...MORE_MAPS].includes(attributes.mapName.toUpperCase()));
      assert.ok(['CLOSED', 'PREPARE', 'PROGRESS'].includes(attributes.seasonState.toUpperCase()));
      assert.equal(attributes.gameMode.toUpperCase(), 'SQUAD');
      assert.ok(
        !Number.isNaN(Date.parse(attributes.createdAt)) && attributes.createdAt.endsWith('Z'),
      );
      assert.ok(Number.isInteger(attributes.duration));
      assert.equal(typeof attributes.isCustomMatch, 'boolean');
      const included = match.included as Json[];
      for (const roster of included.filter((item) => item.type === 'roster')) {
        ints(roster.attributes.stats, ['teamId', 'rank'], 'roster');
        assert.ok(['true', 'false'].includes(String(roster.attributes.won)));
      }
      const participants = included.filter((item) => item.type === 'participant');
      assert.equal(participants.length, world.seats.length);
      for (const participant of participants) {
        const { stats } = participant.attributes;
        ints(stats, INT_PARTICIPANT_STATS, 'participant');
        numbers(stats, NUMBER_PARTICIPANT_STATS, 'participant');
        assert.ok(DEATH_TYPES.includes(stats.deathType.toUpperCase()));
      }
    });

    test('weapon and survival mastery', async () => {
      const seat = world.seats[0]!;
      const weapons = await get(`/shards/steam/players/${seat.playerId}/weapon_mastery`);
      assert.equal(weapons.data.id, seat.playerId);
      assert.ok(PLATFORMS.includes(weapons.data.attributes.platform.toUpperCase()));
      assert.equal(typeof weapons.data.attributes.weaponSummaries, 'object');
      const survival = await get(`/shards/steam/players/${seat.playerId}/survival_mastery`);
      const { attributes } = survival.data;
      ints(attributes, ['xp', 'tier', 'level', 'totalMatchesPlayed'], 'survival');
      for (const key of SURVIVAL_STATS) assert.equal(typeof attributes.stats[key], 'object', key);
      ints(attributes.stats.hotDropLandings, ['total'], 'hotDropLandings');
      ints(attributes.stats.top10, ['total'], 'top10');
    });

    test('a 401 it recognises, and a 429 whose reset parses as a Long', async () => {
      const wrong = await wireGet(world.port, '/shards/steam/seasons', ktorHeaders('wrong'));
      assert.equal(wrong.status, 401);
      await wireGet(world.port, '/shards/steam/seasons', ktorHeaders(world.slowKey));
      const limited = await wireGet(
        world.port,
        '/shards/steam/seasons',
        ktorHeaders(world.slowKey),
      );
      assert.equal(limited.status, 429);
      assert.match(limited.headers['x-ratelimit-reset'] ?? '', /^\d+$/);
    });
  });
}
