/**
 * pubg-dotnet (NuGet `Pubg.Net`, GavinPower747/pubg-dotnet as last stored: `HttpRequestor`,
 * `RequestBuilder` and the services over `Values/Api.cs`), a C# client that cannot be installed
 * here, replayed byte for byte against a real port. Its base URL is a setting
 * (`PubgApiConfiguration.SetApiBase`).
 *
 * What it sends: `HttpClient` defaults (no `User-Agent`) plus `Authorization: Bearer <key>`,
 * `Accept-Encoding: gzip` and `Accept: application/vnd.api+json`, on every request. Filter names
 * go in raw (`filter[playerNames]=`) and values through `WebUtility.UrlEncode`, so the comma of a
 * list is `%2C`; a `DateTime` filter is written in .NET's round-trip format, seven fraction
 * digits and `Z` for a UTC time or `+00:00` for a local one on a UTC machine
 * (`filter[createdAt-start]=2026-11-19T00%3A00%3A00.0000000Z`).
 *
 * What it needs back: every answer gzip-compressed (it always asks); JSON:API documents whose
 * resources and linkages carry string `type` and `id` (JsonApiSerializer), times as ISO 8601 UTC
 * it parses into `DateTime`; and, for any failure but 401 and 415, a JSON body with an `errors`
 * array of objects it maps to `PubgError` (title, detail) — a 429 too, whose `X-RateLimit-Reset`
 * later versions read as well.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { openClientWorld, type ClientWorld } from '../helpers/client-world.ts';
import { wireGet, type HeaderLines } from '../helpers/wire-request.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Resources and linkages of a document have string `type` and `id`; times are ISO UTC. */
function assertJsonApi(document: Json): void {
  const resources = [document.data, ...(document.included ?? [])].flat() as Json[];
  for (const resource of resources) {
    assert.equal(typeof resource.type, 'string');
    // The vendor's season stats carry no id, and the library reads them all the same.
    if (resource.type !== 'playerSeason') {
      assert.equal(typeof resource.id, 'string', `a ${resource.type} has an id`);
    }
    if ('createdAt' in (resource.attributes ?? {})) {
      assert.match(resource.attributes.createdAt, ISO_UTC);
    }
    for (const relationship of Object.values(resource.relationships ?? {}) as Json[]) {
      for (const linkage of [relationship.data ?? []].flat() as Json[]) {
        assert.equal(typeof linkage.type, 'string');
        assert.equal(typeof linkage.id, 'string');
      }
    }
  }
}

/** The `errors` array `ErrorMapper` parses out of a failed request's body. */
function assertErrors(text: string): void {
  const body = JSON.parse(text) as Json;
  assert.ok(Array.isArray(body.errors) && body.errors.length > 0);
  for (const error of body.errors as Json[]) {
    assert.equal(typeof error.title, 'string');
    assert.equal(typeof error.detail, 'string');
  }
}

for (const database of testDatabases) {
  describe(`pubg-dotnet's requests against the service (${database.name})`, () => {
    let world: ClientWorld;
    const requestHeaders = (key: string): HeaderLines => [
      ['Authorization', `Bearer ${key}`],
      ['Accept-Encoding', 'gzip'],
      ['Accept', 'application/vnd.api+json'],
    ];
    const get = async (target: string): Promise<Json> => {
      const answer = await wireGet(world.port, target, requestHeaders(world.t.apiKey));
      assert.equal(answer.status, 200, `${target}: ${answer.text}`);
      assert.equal(answer.headers['content-encoding'], 'gzip', `${target} is compressed`);
      const document = JSON.parse(answer.text) as Json;
      assertJsonApi(document);
      return document;
    };

    before(async () => {
      world = await openClientWorld(database, 'pubg-dotnet');
    });
    after(() => world.close());

    test('players by names and by ids, raw brackets and encoded commas', async () => {
      const [first, second] = world.seats;
      const byName = await get(
        `/shards/steam/players?filter[playerNames]=${first!.name}%2C${second!.name}`,
      );
      const byId = await get(
        `/shards/steam/players?filter[playerIds]=${first!.playerId}%2C${second!.playerId}`,
      );
      const ids = [first!.playerId, second!.playerId].sort();
      assert.deepEqual(byName.data.map((player: Json) => player.id).sort(), ids);
      assert.deepEqual(byId.data.map((player: Json) => player.attributes.name).sort(), [
        first!.name,
        second!.name,
      ]);
      const one = await get(`/shards/steam/players/${first!.playerId}`);
      assert.equal(one.data.attributes.name, first!.name);
    });

    test('seasons and a player season', async () => {
      const seasons = await get('/shards/steam/seasons');
      assert.ok(seasons.data.some((season: Json) => season.id === world.seasonId));
      const seat = world.seats[6]!;
      const stats = await get(`/shards/steam/players/${seat.playerId}/seasons/${world.seasonId}`);
      assert.equal(stats.data.attributes.gameModeStats.squad.kills, seat.stats.kills);
    });

    test('samples from a start time in .NET round-trip format, UTC and local', async () => {
      for (const start of [
        '2026-11-19T00%3A00%3A00.0000000Z',
        '2026-11-19T00%3A00%3A00.0000000%2B00%3A00',
      ]) {
        const samples = await get(`/shards/steam/samples?filter[createdAt-start]=${start}`);
        assert.ok(
          samples.data.relationships.matches.data.some(
            (entry: Json) => entry.id === world.match.id,
          ),
          start,
        );
      }
    });

    test('a match (sent with the key), its telemetry, status and tournaments', async () => {
      const match = await get(`/shards/steam/matches/${world.match.id}`);
      const participants = match.included.filter((item: Json) => item.type === 'participant');
      assert.equal(participants.length, world.seats.length);
      const asset = match.included.find((item: Json) => item.type === 'asset');
      const telemetry = await wireGet(
        world.port,
        new URL(asset.attributes.URL).pathname,
        requestHeaders(world.t.apiKey),
      );
      assert.equal(telemetry.status, 200);
      assert.equal(telemetry.headers['content-encoding'], 'gzip');
      assert.ok(Array.isArray(JSON.parse(telemetry.text)));
      const status = await get('/status');
      assert.match(status.data.attributes.releasedAt, ISO_UTC);
      const tournaments = await get('/tournaments');
      assert.ok(tournaments.data.some((entry: Json) => entry.id === world.tournamentId));
      const tournament = await get(`/tournaments/${world.tournamentId}`);
      assert.equal(tournament.data.relationships.matches.data[0].id, world.tournamentMatchId);
    });

    test('failures carry the errors array it maps; a 429 its reset header', async () => {
      const missing = await wireGet(
        world.port,
        '/shards/steam/players?filter[playerNames]=Nobody',
        requestHeaders(world.t.apiKey),
      );
      assert.equal(missing.status, 404);
      assertErrors(missing.text);
      const unknownMatch = await wireGet(
        world.port,
        '/shards/steam/matches/00000000-0000-4000-8000-000000000000',
        requestHeaders(world.t.apiKey),
      );
      assert.equal(unknownMatch.status, 404);
      assertErrors(unknownMatch.text);
      const slow = requestHeaders(world.slowKey);
      await wireGet(world.port, '/shards/steam/seasons', slow);
      const limited = await wireGet(world.port, '/shards/steam/seasons', slow);
      assert.equal(limited.status, 429);
      assertErrors(limited.text);
      assert.match(limited.headers['x-ratelimit-reset'] ?? '', /^\d+$/);
    });
  });
}
