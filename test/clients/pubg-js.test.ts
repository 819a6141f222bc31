/**
 * A published client library, unchanged but for its base URL, against the service on a real
 * port: pubg.js (npm) walks status, seasons, a player by name and by id, season stats (one
 * player and the batch form it uses for six or more), a match with rosters and participants,
 * its telemetry file through the asset URL, and tournaments. It proves wire compatibility the
 * way a user of that library meets it — vendor shard names (`steam`), encoded brackets in
 * filters, the JSON:API media type — not only the shapes our own tests compare.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/server-process.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import type { MatchInput } from '../../src/ingest/match-input.ts';

const require = createRequire(import.meta.url);
// The library keeps its base URL in a shared constants object: the one setting a user changes.
const constants = require('pubg.js/src/util/Constants.js') as { BASE_URL: string };
const { Client } = require('pubg.js') as { Client: PubgClientClass };

interface PubgPlayer {
  id: string;
  attributes: { name: string; shardId: string };
  relationships: { matches: Array<{ id: string }> };
}
interface PubgMatch {
  id: string;
  attributes: { gameMode: string; mapName: string; duration: number };
  relationships: {
    rosters: Array<{
      relationships: { participants: Array<{ attributes: { stats: { kills: number } } }> };
    }>;
    assets: Array<{ attributes: { URL: string } }>;
  };
  fetchTelemetry(): Promise<Array<{ _T: string }>>;
}
interface PubgSeason {
  id: string;
  attributes: { isCurrentSeason: boolean };
}
interface PubgPlayerSeason {
  attributes: { gameModeStats: Record<string, { roundsPlayed: number; kills: number }> };
}
interface PubgClient {
  getStatus(): Promise<{ id: string }>;
  getSeasons(): Promise<PubgSeason[]>;
  getCurrentSeason(): Promise<PubgSeason>;
  getPlayer(args: { name?: string; id?: string | string[] }): Promise<PubgPlayer | PubgPlayer[]>;
  getPlayerSeason(player: PubgPlayer, season: PubgSeason): Promise<PubgPlayerSeason>;
  getManyPlayerSeason(args: { ids: string[] }, season: string): Promise<PubgPlayerSeason[]>;
  getMatch(id: string): Promise<PubgMatch>;
  getTournaments(): Promise<unknown[]>;
}
type PubgClientClass = new (key: string, shard: string) => PubgClient;

for (const database of testDatabases) {
  describe(`pubg.js against the service (${database.name})`, () => {
    let t: TestApp;
    let client: PubgClient;
    let match: MatchInput;
    const savedBaseUrl = constants.BASE_URL;
    before(async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      t = await createTestApp(database, { PUBLIC_BASE_URL: base });
      match = makeMatchInput({ seed: 'pubg-js', rosters: 4, playersPerRoster: 2, telemetry: true });
      await ingestMatch(t, match);
      await ingestMatch(
        t,
        makeMatchInput({
          seed: 'pubg-js-tournament',
          overrides: {
            platformShard: 'tournament',
            regionShard: 'pc-tournament',
            tournamentId: 'eu-test26',
          },
        }),
      );
      await t.app.listen({ host: '127.0.0.1', port });
      constants.BASE_URL = base;
      client = new Client(t.apiKey, 'steam');
    });
    after(async () => {
      constants.BASE_URL = savedBaseUrl;
      await t.close();
    });

    test('status and the current season', async () => {
      const status = await client.getStatus();
      assert.equal(status.id, 'pubg-api');
      const seasons = await client.getSeasons();
      const current = await client.getCurrentSeason();
      assert.ok(seasons.length > 1);
      assert.equal(current.attributes.isCurrentSeason, true);
      assert.ok(seasons.some((season) => season.id === current.id));
    });

    test('a player by name and by id, with the match it played', async () => {
      const seat = match.rosters[0]!.participants[0]!;
      const byName = (await client.getPlayer({ name: seat.name })) as PubgPlayer;
      assert.equal(byName.id, seat.playerId);
      assert.equal(byName.attributes.name, seat.name);
      assert.equal(byName.attributes.shardId, 'steam');
      assert.deepEqual(
        byName.relationships.matches.map((entry) => entry.id),
        [match.id],
      );
      const byId = (await client.getPlayer({ id: seat.playerId })) as PubgPlayer;
      assert.equal(byId.attributes.name, seat.name);
    });

    test('the match, its participants and its telemetry through the asset URL', async () => {
      const fetched = await client.getMatch(match.id);
      assert.equal(fetched.id, match.id);
      assert.equal(fetched.attributes.gameMode, match.gameMode);
      const kills = fetched.relationships.rosters
        .flatMap((roster) => roster.relationships.participants)
        .map((participant) => participant.attributes.stats.kills)
        .sort();
      const ingestedKills = match.rosters
        .flatMap((roster) => roster.participants)
        .map((participant) => participant.stats.kills)
        .sort();
      assert.deepEqual(kills, ingestedKills);
      const events = await fetched.fetchTelemetry();
      assert.ok(Array.isArray(events) && events.length > 0);
      assert.ok(events.every((event) => typeof event._T === 'string'));
    });

    test('season stats for one player and for eight in the batch form', async () => {
      const current = await client.getCurrentSeason();
      const seat = match.rosters[0]!.participants[0]!;
      const player = (await client.getPlayer({ id: seat.playerId })) as PubgPlayer;
      const one = await client.getPlayerSeason(player, current);
      const mode = one.attributes.gameModeStats[match.gameMode]!;
      assert.equal(mode.roundsPlayed, 1);
      assert.equal(mode.kills, seat.stats.kills);
      // Six players or more: the library switches to /seasons/<id>/gameMode/<mode>/players.
      const ids = match.rosters.flatMap((roster) => roster.participants.map((p) => p.playerId));
      const many = await client.getManyPlayerSeason({ ids }, current.id);
      assert.equal(many.length, ids.length);
      const rounds = many.map(
        (stats) => stats.attributes.gameModeStats[match.gameMode]!.roundsPlayed,
      );
      assert.deepEqual(
        rounds,
        ids.map(() => 1),
      );
    });

    test('tournaments', async () => {
      const tournaments = (await client.getTournaments()) as Array<{ id: string }>;
      assert.deepEqual(
        tournaments.map((tournament) => tournament.id),
        ['eu-test26'],
      );
    });
  });
}
