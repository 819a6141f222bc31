/**
 * A second published client library, a TypeScript one of 2025, unchanged but for its `baseUrl`
 * option, against the service on a real port: @j03fr0st/pubg-ts walks seasons, players by
 * name, by several names and by id, season stats (one player and the batch form), lifetime
 * stats (one player and the batch form), a match and its telemetry through the asset URL, a
 * region's leaderboard of a season, and the samples of a region and of a platform. Its requests differ from pubg.js's:
 * brackets sent percent-encoded by URLSearchParams, `Content-Type` on every GET, the lifetime
 * batch path and the leaderboard form with a season — the ways a client of today meets us.
 *
 * The library allows itself 10 requests a minute per client, the public service's budget, so
 * each test makes a client of its own (and clears the library's shared response cache).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/server-process.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { rebuildLeaderboards } from '../../src/jobs/rebuild-leaderboards.ts';
import { buildSamples } from '../../src/jobs/build-samples.ts';
import type { MatchInput } from '../../src/ingest/match-input.ts';

// The library starts a 30-second health-check timer at load unless told not to, which would
// keep this file's process alive after its tests.
process.env.MONITORING_ENABLED = 'false';
const require = createRequire(import.meta.url);
const { PubgClient } = require('@j03fr0st/pubg-ts') as { PubgClient: PubgClientClass };

interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { data: unknown }>;
}
interface ModeStats {
  roundsPlayed: number;
  kills: number;
}
type PlayerSeason = Resource & {
  attributes: { gameModeStats: Record<string, ModeStats> };
};
interface Document<D> {
  data: D;
  included?: Resource[];
}
interface PubgTsClient {
  players: {
    getPlayerByName(name: string): Promise<Document<Resource[]>>;
    getPlayerById(id: string): Promise<Document<Resource[]>>;
    getPlayers(query: {
      playerNames?: string[];
      playerIds?: string[];
    }): Promise<Document<Resource[]>>;
    getPlayerSeasonStats(query: {
      playerId: string;
      seasonId: string;
    }): Promise<Document<PlayerSeason>>;
    getPlayerSeasonStatsBatch(query: {
      seasonId: string;
      gameMode: string;
      playerIds: string[];
    }): Promise<Document<PlayerSeason[]>>;
    getPlayerLifetimeStats(playerId: string): Promise<Document<PlayerSeason>>;
    getPlayerLifetimeStatsBatch(query: {
      gameMode: string;
      playerIds: string[];
    }): Promise<Document<PlayerSeason[]>>;
  };
  matches: { getMatch(id: string): Promise<Document<Resource>> };
  seasons: {
    getSeasons(): Promise<Document<Resource[]>>;
    getCurrentSeason(): Promise<Document<Resource[]> | Resource>;
  };
  leaderboards: {
    getLeaderboard(query: { seasonId: string; gameMode: string }): Promise<Document<Resource>>;
  };
  samples: { getSamples(): Promise<Document<Resource>> };
  telemetry: { getTelemetryData(url: string): Promise<Array<{ _T: string }>> };
  clearCache(): void;
}
type PubgClientClass = new (config: {
  apiKey: string;
  shard: string;
  baseUrl: string;
}) => PubgTsClient;

const SQUADS = 4;

for (const database of testDatabases) {
  describe(`@j03fr0st/pubg-ts against the service (${database.name})`, () => {
    let t: TestApp;
    let base: string;
    let match: MatchInput;
    const client = (shard: string): PubgTsClient => {
      const made = new PubgClient({ apiKey: t.apiKey, shard, baseUrl: base });
      made.clearCache();
      return made;
    };
    const seats = () => match.rosters.flatMap((roster) => roster.participants);

    before(async () => {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      t = await createTestApp(database, { PUBLIC_BASE_URL: base });
      match = makeMatchInput({
        seed: 'pubg-ts',
        rosters: SQUADS,
        playersPerRoster: 4,
        telemetry: true,
        // The day before the test clock's: the latest sample list is of the last whole day.
        overrides: { createdAt: '2026-11-19T12:00:00Z' },
      });
      await ingestMatch(t, match);
      await rebuildLeaderboards(t);
      await buildSamples(t);
      await t.app.listen({ host: '127.0.0.1', port });
    });
    after(async () => {
      await t.close();
    });

    test('seasons, and exactly one of them current', async () => {
      const pubg = client('steam');
      const seasons = await pubg.seasons.getSeasons();
      const current = seasons.data.filter((season) => season.attributes.isCurrentSeason);
      assert.ok(seasons.data.length > 1);
      assert.equal(current.length, 1);
      assert.ok(current[0]!.id.startsWith('division.bro.official.pc-'));
    });

    test('players by name, by several names and by id, with the match they played', async () => {
      const pubg = client('steam');
      const [first, second, third] = seats();
      const byName = await pubg.players.getPlayerByName(first!.name);
      assert.deepEqual(
        byName.data.map((player) => [player.id, player.attributes.name, player.attributes.shardId]),
        [[first!.playerId, first!.name, 'steam']],
      );
      assert.deepEqual(byName.data[0]!.relationships.matches!.data, [
        { type: 'match', id: match.id },
      ]);
      const names = [first!.name, second!.name, third!.name];
      const several = await pubg.players.getPlayers({ playerNames: names });
      assert.deepEqual(several.data.map((player) => player.attributes.name).sort(), names.sort());
      const byId = await pubg.players.getPlayerById(second!.playerId);
      assert.equal(byId.data[0]!.attributes.name, second!.name);
    });

    test('season stats of one player and of a squad in the batch form', async () => {
      const pubg = client('steam');
      const season = (await pubg.seasons.getSeasons()).data.find(
        (candidate) => candidate.attributes.isCurrentSeason,
      )!;
      const seat = seats()[5]!;
      const one = await pubg.players.getPlayerSeasonStats({
        playerId: seat.playerId,
        seasonId: season.id,
      });
      assert.equal(one.data.type, 'playerSeason');
      assert.deepEqual(one.data.attributes.gameModeStats.squad, {
        ...one.data.attributes.gameModeStats.squad,
        roundsPlayed: 1,
        kills: seat.stats.kills,
      });
      const ids = seats()
        .slice(0, 10)
        .map((player) => player.playerId);
      const batch = await pubg.players.getPlayerSeasonStatsBatch({
        seasonId: season.id,
        gameMode: 'squad',
        playerIds: ids,
      });
      assert.equal(batch.data.length, ids.length);
      assert.deepEqual(
        batch.data.map((stats) => Object.keys(stats.attributes.gameModeStats)),
        ids.map(() => ['squad']),
      );
      assert.deepEqual(
        batch.data.map((stats) => stats.attributes.gameModeStats.squad!.roundsPlayed),
        ids.map(() => 1),
      );
    });

    test('lifetime stats of one player and of several in the batch form', async () => {
      const pubg = client('steam');
      const seat = seats()[2]!;
      const one = await pubg.players.getPlayerLifetimeStats(seat.playerId);
      assert.equal(one.data.type, 'playerSeason');
      assert.deepEqual(one.data.relationships.season!.data, { type: 'season', id: 'lifetime' });
      assert.equal(one.data.attributes.gameModeStats.squad!.kills, seat.stats.kills);
      const ids = seats()
        .slice(0, 4)
        .map((player) => player.playerId);
      const batch = await pubg.players.getPlayerLifetimeStatsBatch({
        gameMode: 'squad',
        playerIds: ids,
      });
      assert.deepEqual(
        batch.data.map((stats) => stats.attributes.gameModeStats.squad!.kills),
        ids.map((id) => seats().find((player) => player.playerId === id)!.stats.kills),
      );
    });

    test('the match, its participants and its telemetry through the asset URL', async () => {
      const pubg = client('steam');
      const fetched = await pubg.matches.getMatch(match.id);
      assert.equal(fetched.data.id, match.id);
      assert.equal(fetched.data.attributes.gameMode, 'squad');
      const included = fetched.included ?? [];
      const participants = included.filter((resource) => resource.type === 'participant');
      assert.equal(participants.length, seats().length);
      const asset = included.find((resource) => resource.type === 'asset')!;
      const url = String(asset.attributes.URL);
      assert.ok(url.startsWith(`${base}/`), `${url} names this service`);
      const events = await pubg.telemetry.getTelemetryData(url);
      assert.ok(Array.isArray(events) && events.length > 0);
      assert.ok(events.every((event) => typeof event._T === 'string'));
    });

    test("a region's leaderboard of the current season, and its samples", async () => {
      const pubg = client('pc-eu');
      const season = (await client('steam').seasons.getSeasons()).data.find(
        (candidate) => candidate.attributes.isCurrentSeason,
      )!;
      const board = await pubg.leaderboards.getLeaderboard({
        seasonId: season.id,
        gameMode: 'squad',
      });
      assert.equal(board.data.type, 'leaderboard');
      const ranked = (board.included ?? []).filter((resource) => resource.type === 'player');
      assert.equal(ranked.length, seats().length);
      assert.ok(ranked.every((player) => seats().some((seat) => seat.playerId === player.id)));

      const samples = await pubg.samples.getSamples();
      assert.equal(samples.data.type, 'sample');
      assert.deepEqual(samples.data.relationships.matches!.data, [
        { type: 'match', id: match.id, meta: { shardId: 'pc-b' } },
      ]);
      // The real service's samples shard is the platform's: every region of it, spelled as asked.
      const steam = await client('steam').samples.getSamples();
      assert.equal(steam.data.attributes.shardId, 'steam');
      assert.deepEqual(steam.data.relationships.matches!.data, [
        { type: 'match', id: match.id, meta: { shardId: 'steam' } },
      ]);
    });
  });
}
