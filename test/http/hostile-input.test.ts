import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { MAX_QUERY_VALUE_LENGTH, unstorableCharacter } from '../../src/http/input-guard.ts';

const DAY_MS = 86_400_000;
const SEASON = 'division.bro.official.pc-2018-01';

test('unpaired surrogates and NUL are unstorable; whole pairs and other text are not', () => {
  assert.equal(unstorableCharacter('a\u0000b'), 'a NUL character');
  assert.equal(unstorableCharacter('\uD800'), 'an unpaired surrogate');
  assert.equal(unstorableCharacter('x\uDC00y'), 'an unpaired surrogate');
  assert.equal(unstorableCharacter('\uD83D\uDE00 ok'), null);
  assert.equal(unstorableCharacter('Ünïcödé \uFFFD 100%'), null);
});

for (const database of testDatabases) {
  describe(`hostile input answers alike on every database (${database.name})`, () => {
    let t: TestApp;
    let matchId: string;
    let telemetryPath: string;
    const player = accountId(0);

    before(async () => {
      t = await createTestApp(database);
      const match = makeMatchInput({
        seed: 'hostile',
        telemetry: true,
        overrides: { createdAt: new Date(t.clock.now() - DAY_MS).toISOString() },
      });
      await ingestMatch(t, match);
      matchId = match.id;
      const document = (await t.app.inject({ url: `/shards/pc-b/matches/${matchId}` })).json();
      const asset = document.included.find((r: { type: string }) => r.type === 'asset');
      telemetryPath = String(asset.attributes.URL).slice(TEST_BASE_URL.length);
    });
    after(() => t.close());

    const get = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ url, headers: { ...t.auth, ...headers } });

    /** Asserts a small JSON:API error of this status whose detail names `parameter`. */
    function assertRefused(
      response: Awaited<ReturnType<typeof get>>,
      status: number,
      parameter: string,
      url: string,
    ): void {
      assert.equal(response.statusCode, status, `${url}: ${response.body}`);
      assert.equal(response.headers['content-type'], 'application/vnd.api+json', url);
      const error = response.json().errors[0];
      assert.equal(error.title, status === 404 ? 'Not Found' : 'Bad Request', url);
      assert.ok(error.detail.includes(parameter), `${url}: "${error.detail}" names ${parameter}`);
      assert.ok(response.body.length < 400, `${url}: the error echoes no input`);
    }

    test('a NUL in any id of a path is a 404 naming the parameter', async () => {
      const telemetryFile = telemetryPath.replace(/[^/]+$/, 'x%00-telemetry.json');
      const telemetryYear = telemetryPath.replace(/\/(\d{4})\//, '/2%0026/');
      const cases: Array<[string, string]> = [
        [`/shards/pc-b/matches/%00`, 'matchId'],
        [`/shards/pc-b/matches/${matchId}%00`, 'matchId'],
        [`/shards/pc-b/players/%00`, 'accountId'],
        [`/shards/pc-b/players/${player}%00/seasons/lifetime`, 'accountId'],
        [`/shards/pc-b/players/${player}/seasons/%00`, 'seasonId'],
        [`/shards/pc-b/players/${player}/seasons/${SEASON}%00`, 'seasonId'],
        [`/shards/pc-b/seasons/%00/gameMode/squad/players?filter[playerIds]=${player}`, 'seasonId'],
        [
          `/shards/pc-b/seasons/${SEASON}/gameMode/squad%00/players?filter[playerIds]=x`,
          'gameMode',
        ],
        [telemetryFile, 'file'],
        [telemetryYear, 'yyyy'],
        [`/tournaments/%00`, 'tournamentId'],
        [`/tournaments/eu-pgs26%00`, 'tournamentId'],
        [`/shards/pc-b/leaderboards/%00`, 'gameMode'],
        [`/shards/pc-b/leaderboards/squad%00?page[number]=1`, 'gameMode'],
        [`/shards/pc-eu/leaderboards/%00/squad`, 'seasonId'],
        [`/shards/pc-b%00/players/${player}`, 'shard'],
      ];
      for (const [url, parameter] of cases) {
        assertRefused(await get(url), 404, parameter, url);
      }
    });

    test('a NUL in any filter or query value is a 400 naming the parameter', async () => {
      const cases: Array<[string, string]> = [
        ['/shards/pc-b/players?filter[playerNames]=%00', 'filter[playerNames]'],
        ['/shards/pc-b/players?filter[playerNames]=Player0,Play%00er1', 'filter[playerNames]'],
        ['/shards/pc-b/players?filter%5BplayerNames%5D=%00', 'filter[playerNames]'],
        [`/shards/pc-b/players?filter[playerIds]=${player}%00`, 'filter[playerIds]'],
        [
          `/shards/pc-b/seasons/${SEASON}/gameMode/squad/players?filter[playerIds]=%00`,
          'filter[playerIds]',
        ],
        ['/shards/pc-eu/samples?filter[createdAt-start]=2026-11-19T00:00:00Z%00', 'createdAt'],
        ['/shards/pc-b/leaderboards/squad?page[number]=1%00', 'page[number]'],
        ['/tournaments?page[number]=%00', 'page[number]'],
      ];
      for (const [url, parameter] of cases) {
        assertRefused(await get(url), 400, parameter, url);
      }
    });

    test('invalid percent-encoding in a query value is a 400 naming the parameter', async () => {
      for (const bad of ['%E0%A4%A', '%C3%28', '%ED%A0%80', '%FF', '100%', '%zz']) {
        for (const [url, parameter] of [
          [`/shards/pc-b/players?filter[playerNames]=${bad}`, 'filter[playerNames]'],
          [`/shards/pc-b/players?filter[playerIds]=${bad}`, 'filter[playerIds]'],
          [`/shards/pc-eu/samples?filter[createdAt-start]=${bad}`, 'filter[createdAt-start]'],
          [`/shards/pc-b/leaderboards/squad?page[number]=${bad}`, 'page[number]'],
        ] as const) {
          assertRefused(await get(url), 400, parameter, url);
        }
      }
    });

    test('invalid percent-encoding in a path never reaches a query', async () => {
      for (const bad of ['%E0%A4%A', '%C3%28', '%ED%A0%80', '%FF']) {
        for (const url of [
          `/shards/pc-b/matches/${bad}`,
          `/shards/pc-b/players/${bad}`,
          `/tournaments/${bad}`,
          `/shards/pc-b/leaderboards/${bad}`,
        ]) {
          const response = await get(url);
          // The router refuses these before any route runs (Fastify's FST_ERR_BAD_URL).
          assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
        }
      }
    });

    test('over-long values are refused without being echoed', async () => {
      const long = 'x'.repeat(MAX_QUERY_VALUE_LENGTH + 1);
      for (const [url, parameter] of [
        [`/shards/pc-b/players?filter[playerNames]=${long}`, 'filter[playerNames]'],
        [`/shards/pc-b/players?filter[playerIds]=${long}`, 'filter[playerIds]'],
        [`/shards/pc-eu/samples?filter[createdAt-start]=${long}`, 'filter[createdAt-start]'],
        [`/shards/pc-b/leaderboards/squad?page[number]=${long}`, 'page[number]'],
      ] as const) {
        assertRefused(await get(url), 400, parameter, url);
      }
      // Ten names of the longest real length still pass the guard.
      const names = Array.from({ length: 10 }, (_, i) => `${'n'.repeat(60)}${i}`).join(',');
      const found = await get(`/shards/pc-b/players?filter[playerNames]=${names}`);
      assert.equal(found.statusCode, 404);
      assert.equal(found.json().errors[0].detail, 'No Players Found Matching Criteria');
      // Ids longer than the router accepts never reach a route.
      for (const url of [
        `/shards/pc-b/players/${'x'.repeat(5000)}`,
        `/shards/pc-b/matches/${'x'.repeat(5000)}`,
      ]) {
        const response = await get(url);
        assert.ok(response.statusCode >= 400 && response.statusCode < 500, url);
      }
    });

    test('content-coding names are matched case-insensitively everywhere', async () => {
      const urls = [
        `/shards/pc-b/matches/${matchId}`,
        telemetryPath,
        `/shards/pc-b/matches/${crypto.randomUUID()}`,
        '/shards/pc-b/seasons',
        `/shards/pc-b/players?filter[playerNames]=Player0`,
        '/status',
      ];
      for (const url of urls) {
        for (const acceptEncoding of ['GZIP', 'Gzip;q=1', 'br, GZip', 'gzip']) {
          const response = await get(url, { 'accept-encoding': acceptEncoding });
          assert.equal(response.headers['content-encoding'], 'gzip', `${url} ${acceptEncoding}`);
          assert.doesNotThrow(() => zlib.gunzipSync(response.rawPayload), url);
        }
        for (const acceptEncoding of ['GZIP;q=0', 'identity', 'br']) {
          const response = await get(url, { 'accept-encoding': acceptEncoding });
          assert.equal(response.headers['content-encoding'], undefined, `${url} ${acceptEncoding}`);
        }
      }
    });
  });
}
