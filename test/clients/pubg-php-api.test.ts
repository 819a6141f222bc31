/**
 * pubg-php-api (Packagist `samiaraboglu/pubg-php-api`, its `src/` as last stored, on Guzzle 6),
 * a PHP client that cannot be installed here, replayed byte for byte against a real port.
 *
 * What it sends: paths written with `sprintf`, brackets literal, which Guzzle's PSR-7 URI then
 * percent-encodes while it leaves sub-delimiters and colons alone — so, unlike the Python
 * clients, commas and colons arrive raw (`filter%5BplayerNames%5D=a,b`,
 * `filter%5BcreatedAt-start%5D=2026-11-19T00:00:00Z`). Headers: Guzzle's `User-Agent`,
 * `Authorization: Bearer <key>` and `Accept: application/vnd.api+json`, no `Accept-Encoding`
 * (Guzzle has curl drop it). It uses the old leaderboard path with `page[number]`.
 *
 * What it needs back: little — every answer a 200 (Guzzle throws on 4xx/5xx) whose `data` it
 * indexes: `id` of players, seasons, samples, leaderboards and tournaments, `attributes.name`
 * of players, `data[0]` of a name lookup.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { openClientWorld, type ClientWorld } from '../helpers/client-world.ts';
import { wireGet } from '../helpers/wire-request.ts';

interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
}

for (const database of testDatabases) {
  describe(`pubg-php-api's requests against the service (${database.name})`, () => {
    let world: ClientWorld;
    const data = async (path: string): Promise<Resource | Resource[]> => {
      const answer = await wireGet(world.port, path, [
        ['User-Agent', 'GuzzleHttp/6.5.5 curl/7.88.1 PHP/7.4.33'],
        ['Authorization', `Bearer ${world.t.apiKey}`],
        ['Accept', 'application/vnd.api+json'],
      ]);
      assert.equal(answer.status, 200, `${path}: ${answer.text}`);
      assert.equal(answer.headers['content-encoding'], undefined, 'not compressed unasked');
      return (JSON.parse(answer.text) as { data: Resource | Resource[] }).data;
    };
    const list = async (path: string): Promise<Resource[]> => {
      const answer = await data(path);
      assert.ok(Array.isArray(answer), `${path} answers a list`);
      return answer;
    };
    const one = async (path: string): Promise<Resource> => {
      const answer = await data(path);
      assert.ok(!Array.isArray(answer), `${path} answers one resource`);
      return answer;
    };

    before(async () => {
      world = await openClientWorld(database, 'pubg-php-api');
    });
    after(() => world.close());

    test('a player by name, several by raw-comma lists, one by account id', async () => {
      const [first, second] = world.seats;
      const [byName] = await list(`/shards/steam/players?filter%5BplayerNames%5D=${first!.name}`);
      assert.equal(byName!.id, first!.playerId);
      assert.equal(byName!.attributes.name, first!.name);
      const ids = [first!.playerId, second!.playerId];
      const names = await list(
        `/shards/steam/players?filter%5BplayerNames%5D=${first!.name},${second!.name}`,
      );
      assert.deepEqual(names.map((player) => player.id).sort(), [...ids].sort());
      const byIds = await list(`/shards/steam/players?filter%5BplayerIds%5D=${ids.join(',')}`);
      assert.deepEqual(byIds.map((player) => player.attributes.name).sort(), [
        first!.name,
        second!.name,
      ]);
      const byId = await one(`/shards/steam/players/${second!.playerId}`);
      assert.equal(byId.attributes.name, second!.name);
    });

    test('seasons, a season and lifetime of a player, a match', async () => {
      const seasons = await list('/shards/steam/seasons');
      assert.ok(seasons.some((season) => season.id === world.seasonId));
      const seat = world.seats[4]!;
      for (const season of [world.seasonId, 'lifetime']) {
        const stats = await one(`/shards/steam/players/${seat.playerId}/seasons/${season}`);
        assert.equal(stats.type, 'playerSeason');
      }
      const match = await one(`/shards/steam/matches/${world.match.id}`);
      assert.equal(match.id, world.match.id);
    });

    test('samples from a raw-colon start time, the old leaderboard, tournaments', async () => {
      const samples = await one(
        '/shards/steam/samples?filter%5BcreatedAt-start%5D=2026-11-19T00:00:00Z',
      );
      assert.equal(samples.type, 'sample');
      assert.equal(typeof samples.id, 'string');
      const board = await one('/shards/steam/leaderboards/squad?page%5Bnumber%5D=0');
      assert.equal(board.type, 'leaderboard');
      assert.equal(typeof board.id, 'string');
      const tournaments = await list('/tournaments');
      assert.ok(tournaments.some((tournament) => tournament.id === world.tournamentId));
      const tournament = await one(`/tournaments/${world.tournamentId}`);
      assert.equal(tournament.id, world.tournamentId);
    });
  });
}
