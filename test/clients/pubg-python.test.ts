/**
 * pubg-python (PyPI `pubg-python` 0.12.5, ramonsaraiva/pubg-python as of its 2022 release), a
 * Python client that cannot be installed here, replayed byte for byte against a real port.
 *
 * What it sends: `requests` defaults (`User-Agent: python-requests/…`, `Accept-Encoding: gzip,
 * deflate`, `Connection: keep-alive`) plus `Accept: application/vnd.api+json` and
 * `Authorization: Bearer <key>`; URLs built with furl (2.x, what `furl>=1.0.1` installs today),
 * which percent-encodes brackets, commas and colons alike (`filter%5BplayerNames%5D=a%2Cb`,
 * `filter%5BcreatedAt-start%5D=2026-11-19T00%3A00%3A00Z`). It calls the old leaderboard path
 * `/leaderboards/<mode>?page[number]=0`. Its telemetry client sends the same headers minus the key.
 *
 * What it needs back: it turns every resource into a class named by Python's `type.title()`
 * (`playerSeason` → `Playerseason`), so an unknown type is a crash; a single-resource answer
 * (`.get`) also builds every non-empty relationship, looking each entry up in `included` by id,
 * and reads `relationship['data']` without a default. Participants need `attributes.stats`,
 * season stats `attributes.gameModeStats`. A 429 must carry `X-Ratelimit-Limit` and
 * `X-Ratelimit-Reset` as integers, the reset as epoch seconds. (Its telemetry client refuses
 * hosts other than the vendor's CDN: users extend `TelemetryClient.TELEMETRY_HOSTS`.)
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { openClientWorld, type ClientWorld } from '../helpers/client-world.ts';
import { wireGet, type HeaderLines } from '../helpers/wire-request.ts';

interface Resource {
  type: string;
  id?: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data?: unknown }>;
}
interface Document {
  data: Resource | Resource[];
  included?: Resource[];
}

/** The classes pubg-python's domain module defines, which `type.title()` must name. */
const CLASSES = new Set([
  'Player',
  'Match',
  'Roster',
  'Participant',
  'Asset',
  'Season',
  'Playerseason',
  'Leaderboard',
  'Sample',
  'Tournament',
  'Weaponmasterysummary',
]);

/** Python's `str.title()`: each run of letters capitalised, the rest of it lower-cased. */
function pythonTitle(text: string): string {
  return text.replace(/[A-Za-z]+/g, (word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase());
}

/**
 * Builds `resource` the way the library's `Domain.instance` does and returns the class names
 * built, failing where the library would raise (unknown class, missing `data`, missing stats).
 */
function instantiate(resource: Resource, included: Resource[], depth = 0): string[] {
  const name = pythonTitle(resource.type);
  assert.ok(CLASSES.has(name), `pubg-python has no class ${name} for type '${resource.type}'`);
  const attributes = resource.attributes ?? {};
  if (name === 'Participant') assert.equal(typeof attributes.stats, 'object');
  if (name === 'Playerseason') assert.equal(typeof attributes.gameModeStats, 'object');
  const built = [name];
  if (depth > 3) return built;
  for (const [key, relationship] of Object.entries(resource.relationships ?? {})) {
    assert.ok('data' in relationship, `relationship ${key} of ${name} has data`);
    const data = relationship.data as Resource | Resource[] | null;
    if (!data || (Array.isArray(data) && data.length === 0)) continue;
    for (const entry of Array.isArray(data) ? data : [data]) {
      const full = included.find((candidate) => candidate.id === entry.id) ?? entry;
      built.push(...instantiate(full, included, depth + 1));
    }
  }
  return built;
}

for (const database of testDatabases) {
  describe(`pubg-python's requests against the service (${database.name})`, () => {
    let world: ClientWorld;
    let headers: HeaderLines;
    const get = async (target: string, lines = headers): Promise<Document> => {
      const answer = await wireGet(world.port, target, lines);
      assert.equal(answer.status, 200, `${target}: ${answer.text}`);
      return JSON.parse(answer.text) as Document;
    };
    /** `QuerySet.get()`: one resource with `included` at hand. */
    const getOne = async (target: string): Promise<{ doc: Document; built: string[] }> => {
      const doc = await get(target);
      return { doc, built: instantiate(doc.data as Resource, doc.included ?? []) };
    };
    /** Iterating a `QuerySet`: each item alone, without `included`. */
    const iterate = async (target: string): Promise<Resource[]> => {
      const doc = await get(target);
      assert.ok(Array.isArray(doc.data), `${target} answers a list`);
      for (const item of doc.data) instantiate(item, []);
      return doc.data;
    };
    const requestsHeaders = (key?: string): HeaderLines => [
      ['User-Agent', 'python-requests/2.32.3'],
      ['Accept-Encoding', 'gzip, deflate'],
      ['Accept', 'application/vnd.api+json'],
      ['Connection', 'keep-alive'],
      ...(key ? [['Authorization', `Bearer ${key}`] as const] : []),
    ];

    before(async () => {
      world = await openClientWorld(database, 'pubg-python');
      headers = requestsHeaders(world.t.apiKey);
    });
    after(() => world.close());

    test('players by names (encoded comma) and by id, with their matches', async () => {
      const [first, second] = world.seats;
      const players = await iterate(
        `/shards/steam/players?filter%5BplayerNames%5D=${first!.name}%2C${second!.name}`,
      );
      assert.deepEqual(
        players.map((player) => player.id).sort(),
        [first!.playerId, second!.playerId].sort(),
      );
      const { built } = await getOne(`/shards/steam/players/${first!.playerId}`);
      assert.deepEqual(built, ['Player', 'Match']);
    });

    test('a match builds rosters, participants and the asset from included', async () => {
      const { doc, built } = await getOne(`/shards/steam/matches/${world.match.id}`);
      const count = (name: string): number => built.filter((entry) => entry === name).length;
      assert.equal(count('Roster'), 4);
      assert.equal(count('Participant'), world.seats.length);
      assert.equal(count('Asset'), 1);
      const ids = (doc.included ?? []).map((resource) => resource.id);
      assert.equal(new Set(ids).size, ids.length, 'included ids are unique: lookups are by id');
    });

    test('seasons, one player season, lifetime, and both batch forms', async () => {
      const seasons = await iterate('/shards/steam/seasons');
      assert.ok(seasons.some((season) => season.id === world.seasonId));
      const seat = world.seats[3]!;
      for (const season of [world.seasonId, 'lifetime']) {
        const { doc, built } = await getOne(
          `/shards/steam/players/${seat.playerId}/seasons/${season}`,
        );
        assert.equal(built[0], 'Playerseason');
        const stats = (doc.data as Resource).attributes!.gameModeStats as Record<
          string,
          { kills: number }
        >;
        assert.equal(stats.squad!.kills, seat.stats.kills);
        const ids = `${world.seats[0]!.playerId}%2C${seat.playerId}`;
        const batch = await iterate(
          `/shards/steam/seasons/${season}/gameMode/squad/players?filter%5BplayerIds%5D=${ids}`,
        );
        assert.equal(batch.length, 2);
      }
    });

    test('the old leaderboard path with page[number]=0', async () => {
      const { built } = await getOne('/shards/steam/leaderboards/squad?page%5Bnumber%5D=0');
      assert.equal(built[0], 'Leaderboard');
      assert.equal(built.filter((entry) => entry === 'Player').length, world.seats.length);
    });

    test('samples, latest and from a start time with encoded colons', async () => {
      for (const query of ['', '?filter%5BcreatedAt-start%5D=2026-11-19T00%3A00%3A00Z']) {
        const { doc, built } = await getOne(`/shards/steam/samples${query}`);
        assert.equal(built[0], 'Sample');
        const matches = (doc.data as Resource).relationships!.matches!.data as Resource[];
        assert.ok(matches.some((entry) => entry.id === world.match.id));
      }
    });

    test('weapon mastery and tournaments', async () => {
      const seat = world.seats[0]!;
      const mastery = await getOne(`/shards/steam/players/${seat.playerId}/weapon_mastery`);
      assert.deepEqual(mastery.built, ['Weaponmasterysummary']);
      const tournaments = await iterate('/tournaments');
      assert.ok(tournaments.some((tournament) => tournament.id === world.tournamentId));
      const one = await getOne(`/tournaments/${world.tournamentId}`);
      assert.deepEqual(one.built, ['Tournament', 'Match']);
    });

    test('the telemetry file, fetched with the telemetry client headers', async () => {
      const match = await get(`/shards/steam/matches/${world.match.id}`);
      const asset = match.included!.find((resource) => resource.type === 'asset')!;
      const url = new URL(String(asset.attributes!.URL));
      const answer = await wireGet(world.port, url.pathname, requestsHeaders());
      assert.equal(answer.status, 200);
      const events = JSON.parse(answer.text) as Array<{ _T: unknown }>;
      assert.ok(events.length > 0 && events.every((event) => typeof event._T === 'string'));
    });

    test('errors it maps by status, and the rate-limit headers of a 429', async () => {
      const missing = await wireGet(
        world.port,
        '/shards/steam/players?filter%5BplayerNames%5D=Nobody',
        headers,
      );
      assert.equal(missing.status, 404);
      const unauthorized = await wireGet(
        world.port,
        '/shards/steam/seasons',
        requestsHeaders('wrong'),
      );
      assert.equal(unauthorized.status, 401);
      const slow = requestsHeaders(world.slowKey);
      await wireGet(world.port, '/shards/steam/seasons', slow);
      const limited = await wireGet(world.port, '/shards/steam/seasons', slow);
      assert.equal(limited.status, 429);
      assert.match(limited.headers['x-ratelimit-limit'] ?? '', /^\d+$/);
      assert.match(limited.headers['x-ratelimit-reset'] ?? '', /^\d+$/);
      const reset = Number(limited.headers['x-ratelimit-reset']) * 1000;
      const now = world.t.clock.now();
      assert.ok(
        reset > now && reset <= now + 60_000,
        'the reset is epoch seconds within the minute',
      );
    });
  });
}
