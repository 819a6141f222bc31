/**
 * chicken-dinner (PyPI `chicken-dinner`, crflynn/chicken-dinner, 0.4–0.10: `pubgapi/core.py`
 * of the 0.4/0.5 line and the models of 0.6 on, whose leaderboard calls the path without a
 * season), a Python client that cannot be installed here, replayed byte for byte against a
 * real port. Requests' encoding and header order were checked with `requests` itself.
 *
 * What it sends: its session headers are replaced outright, so no `User-Agent`, only
 * `Authorization: Bearer <key>`, `Accept: application/vnd.api+json` and `Accept-Encoding: gzip`
 * — on every request, the telemetry file included. Query strings come from `requests`' params,
 * which percent-encode brackets, commas and colons (`filter%5BplayerNames%5D=a%2Cb`,
 * `filter%5BcreatedAt-start%5D=2026-11-19T00%3A00%3A00Z`). It calls `/status` and the old
 * leaderboard path `/leaderboards/<mode>` (no season, no page).
 *
 * What it needs back: after every rate-limited request (everything but `/status`, matches and
 * telemetry) it reads `X-RateLimit-Remaining` and `X-RateLimit-Reset` as integers and splits the
 * `Date` header on spaces (`Fri, 20 Nov 2026 12:00:00 GMT`) to sleep `reset − date` seconds, on
 * a 429 too. Its models index without defaults: a match's `included`, roster
 * `attributes.won` as the strings "true"/"false" (a dict lookup), `attributes.stats`, `tags`,
 * `titleId`, `data.links.self`; participants' `stats.playerId`/`name` and `actor`; a player
 * season's `matches*` relationships by their six names; a leaderboard's ranks 1..N and its
 * `relationships.players` in rank order; `links.self` of seasons, season stats and leaderboards.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { openClientWorld, type ClientWorld } from '../helpers/client-world.ts';
import { wireGet, type HeaderLines, type WireAnswer } from '../helpers/wire-request.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MODES = ['solo', 'duo', 'squad', 'solo-fpp', 'duo-fpp', 'squad-fpp'];
const MATCH_LISTS = [
  'matchesSolo',
  'matchesDuo',
  'matchesSquad',
  'matchesSoloFPP',
  'matchesDuoFPP',
  'matchesSquadFPP',
];

/** Seconds the library would sleep: `X-RateLimit-Reset` minus the `Date` header, as it parses both. */
function rateLimitDelta(answer: WireAnswer): number {
  const parts = (answer.headers.date ?? '').split(' ');
  const [hour, minute, second] = parts[4]!.split(':').map(Number) as [number, number, number];
  const month = MONTHS.indexOf(parts[2]!);
  assert.ok(month >= 0, `month name in Date '${answer.headers.date}'`);
  const serverTime =
    Date.UTC(Number(parts[3]), month, Number(parts[1]), hour, minute, second) / 1000;
  assert.ok(Number.isFinite(serverTime), `Date '${answer.headers.date}' parses`);
  assert.match(answer.headers['x-ratelimit-reset'] ?? '', /^\d+$/);
  return Number(answer.headers['x-ratelimit-reset']) - serverTime;
}

for (const database of testDatabases) {
  describe(`chicken-dinner's requests against the service (${database.name})`, () => {
    let world: ClientWorld;
    const sessionHeaders = (key: string): HeaderLines => [
      ['Authorization', `Bearer ${key}`],
      ['Accept', 'application/vnd.api+json'],
      ['Accept-Encoding', 'gzip'],
    ];
    /** `PUBGCore._get`: the answer, with the rate-limit bookkeeping of limited calls. */
    const get = async (target: string, limited = true): Promise<Json> => {
      const answer = await wireGet(world.port, target, sessionHeaders(world.t.apiKey));
      assert.equal(answer.status, 200, `${target}: ${answer.text}`);
      if (limited) {
        const delta = rateLimitDelta(answer);
        assert.ok(delta >= 0 && delta <= 60, `sleep of ${delta} s after ${target}`);
        assert.match(answer.headers['x-ratelimit-remaining'] ?? '', /^\d+$/);
      }
      return JSON.parse(answer.text) as Json;
    };

    before(async () => {
      world = await openClientWorld(database, 'chicken-dinner');
    });
    after(() => world.close());

    test('status, unlimited, with its id, version and release time', async () => {
      const status = await get('/status', false);
      assert.equal(typeof status.data.id, 'string');
      assert.equal(typeof status.data.attributes.version, 'string');
      assert.equal(typeof status.data.attributes.releasedAt, 'string');
    });

    test('players by names (encoded comma), a player and its seasons', async () => {
      const [first, second] = world.seats;
      const players = await get(
        `/shards/steam/players?filter%5BplayerNames%5D=${first!.name}%2C${second!.name}`,
      );
      assert.equal(players.data.length, 2);
      const player = await get(`/shards/steam/players/${first!.playerId}`);
      assert.deepEqual(
        player.data.relationships.matches.data.map((entry: Json) => entry.id),
        [world.match.id],
      );
      const seasons = await get('/shards/steam/seasons');
      assert.equal(typeof seasons.links.self, 'string');
      assert.ok(seasons.data.some((season: Json) => season.attributes.isCurrentSeason === true));
      for (const season of [world.seasonId, 'lifetime']) {
        const stats = await get(`/shards/steam/players/${first!.playerId}/seasons/${season}`);
        assert.equal(typeof stats.links.self, 'string');
        assert.ok(Object.keys(stats.data.attributes.gameModeStats).every((m) => MODES.includes(m)));
        const lists = Object.keys(stats.data.relationships).filter((key) =>
          key.includes('matches'),
        );
        assert.deepEqual(lists.sort(), [...MATCH_LISTS].sort());
        assert.deepEqual(
          stats.data.relationships.matchesSquad.data.map((entry: Json) => entry.id),
          [world.match.id],
        );
      }
    });

    test('a match as its Match, Roster and Participant models read it', async () => {
      const match = await get(`/shards/steam/matches/${world.match.id}`, false);
      const { attributes } = match.data;
      for (const key of ['createdAt', 'duration', 'stats', 'tags', 'titleId', 'isCustomMatch']) {
        assert.ok(key in attributes, `match attribute ${key}`);
      }
      assert.ok(MODES.includes(attributes.gameMode));
      assert.equal(typeof match.data.links.self, 'string');
      const included = match.included as Json[];
      const participants = new Map(
        included.filter((item) => item.type === 'participant').map((item) => [item.id, item]),
      );
      const rosters = included.filter((item) => item.type === 'roster');
      assert.equal(rosters.length, 4);
      const names = rosters.flatMap((roster) => {
        assert.ok(['true', 'false'].includes(roster.attributes.won), 'won is a string');
        assert.equal(typeof roster.attributes.stats, 'object');
        return roster.relationships.participants.data.map((entry: Json) => {
          const participant = participants.get(entry.id)!;
          assert.equal(typeof participant.attributes.actor, 'string');
          return participant.attributes.stats.name as string;
        });
      });
      assert.deepEqual(names.sort(), world.seats.map((seat) => seat.name).sort());
      assert.equal(rosters.filter((roster) => roster.attributes.won === 'true').length, 1);
      const asset = included.find((item) => item.type === 'asset')!;
      const url = new URL(asset.attributes.URL);
      const telemetry = await wireGet(world.port, url.pathname, sessionHeaders(world.t.apiKey));
      assert.equal(telemetry.status, 200, 'the key it sends to the telemetry host is ignored');
      assert.equal(telemetry.headers['content-encoding'], 'gzip');
      assert.ok(Array.isArray(JSON.parse(telemetry.text)));
    });

    test('the old leaderboard path, ranked 1..N in relationship order', async () => {
      const board = await get('/shards/steam/leaderboards/squad');
      assert.equal(typeof board.links.self, 'string');
      const included = board.included as Json[];
      const ranks = included.map((player) => player.attributes.rank as number);
      assert.deepEqual(
        [...ranks].sort((a, b) => a - b),
        ranks.map((_, index) => index + 1),
      );
      const order = board.data.relationships.players.data.map((entry: Json) => entry.id);
      for (const player of included) assert.equal(order[player.attributes.rank - 1], player.id);
    });

    test('samples from a start time with encoded colons, and tournaments', async () => {
      const samples = await get(
        '/shards/steam/samples?filter%5BcreatedAt-start%5D=2026-11-19T00%3A00%3A00Z',
      );
      assert.equal(typeof samples.data.id, 'string');
      assert.equal(typeof samples.data.attributes.createdAt, 'string');
      assert.equal(typeof samples.data.attributes.titleId, 'string');
      assert.ok(
        samples.data.relationships.matches.data.some((entry: Json) => entry.id === world.match.id),
      );
      const tournaments = await get('/tournaments');
      assert.ok(tournaments.data.some((entry: Json) => entry.id === world.tournamentId));
      const tournament = await get(`/tournaments/${world.tournamentId}`);
      assert.deepEqual(
        tournament.data.relationships.matches.data.map((entry: Json) => entry.id),
        [world.tournamentMatchId],
      );
    });

    test('a 429 it sleeps through: Date and X-RateLimit-Reset give the wait', async () => {
      const slow = sessionHeaders(world.slowKey);
      await wireGet(world.port, '/shards/steam/seasons', slow);
      const limited = await wireGet(world.port, '/shards/steam/seasons', slow);
      assert.equal(limited.status, 429);
      const delta = rateLimitDelta(limited);
      assert.ok(delta > 0 && delta <= 60, `a wait of ${delta} s`);
    });
  });
}
