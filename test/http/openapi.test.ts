import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Value } from '@sinclair/typebox/value';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { ingestEntity } from '../../src/ingest/ingest-entity.ts';
import { rebuildLeaderboards } from '../../src/jobs/rebuild-leaderboards.ts';
import { buildSamples } from '../../src/jobs/build-samples.ts';
import { DOCUMENT_SCHEMAS } from '../../src/http/schemas/document-schemas.ts';
import { renderStatus } from '../../src/presenters/status.ts';

const HOUR = 3_600_000;
const REDOCLY = path.resolve(import.meta.dirname, '../../node_modules/.bin/redocly');

interface Operation {
  summary?: string;
  operationId?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; example?: string; schema: object }>;
  responses: Record<
    string,
    { content?: Record<string, { schema: { $ref?: string } }>; headers?: object }
  >;
}
type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object> };
};

const operations = (document: OpenApi): Array<[string, string, Operation]> =>
  Object.entries(document.paths).flatMap(([url, item]) =>
    Object.entries(item).map(([method, op]): [string, string, Operation] => [method, url, op]),
  );

/** The documented schema of one response, as the TypeBox schema it was generated from. */
function documentedSchema(operation: Operation, status: string) {
  const content = operation.responses[status]?.content;
  const ref = Object.values(content ?? {})[0]?.schema.$ref;
  assert.ok(ref, `status ${status} has a documented schema`);
  const schema = DOCUMENT_SCHEMAS.find((s) => s.$id === ref.split('/').pop());
  assert.ok(schema, ref);
  return schema;
}

describe('/openapi.json', () => {
  let t: TestApp;
  let document: OpenApi;
  before(async () => {
    t = await createTestApp(testDatabases[0]!);
    const response = await t.app.inject({ url: '/openapi.json' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/json');
    document = response.json();
  });
  after(() => t.close());

  test('is OpenAPI 3.1 and describes every route with a summary, operationId and tag', () => {
    assert.equal(document.openapi, '3.1.0');
    for (const url of [
      '/status',
      '/healthz',
      '/readyz',
      '/shards/{shard}/matches/{matchId}',
      '/telemetry/bluehole-pubg/{shard}/{yyyy}/{mm}/{dd}/{hh}/{min}/{file}',
      '/shards/{shard}/players',
      '/shards/{shard}/players/{accountId}',
      '/shards/{shard}/seasons',
      '/shards/{shard}/players/{accountId}/seasons/{seasonId}',
      '/shards/{shard}/seasons/{seasonId}/gameMode/{gameMode}/players',
      '/shards/{shard}/leaderboards/{gameMode}',
      '/shards/{shard}/leaderboards/{seasonId}/{gameMode}',
      '/shards/{shard}/samples',
      '/tournaments',
      '/tournaments/{tournamentId}',
      '/shards/{shard}/players/{accountId}/seasons/{seasonId}/ranked',
      '/shards/{shard}/clans/{clanId}',
      '/openapi.json',
      '/metrics',
    ]) {
      assert.ok(document.paths[url]?.get, `GET ${url} is documented`);
    }
    assert.ok(document.paths['/ingest/matches']?.post, 'POST /ingest/matches is documented');
    assert.ok(document.paths['/ingest/matches/{matchId}/telemetry']?.put, 'PUT …/telemetry too');
    const ids = new Set<string>();
    for (const [method, url, op] of operations(document)) {
      assert.ok(op.summary, `${method} ${url} has a summary`);
      assert.ok(op.operationId && !ids.has(op.operationId), `${method} ${url}: unique operationId`);
      ids.add(op.operationId);
      assert.ok(op.tags?.length, `${method} ${url} is tagged`);
      assert.ok(
        Object.keys(op.responses).some((status) => status.startsWith('4')),
        `${method} ${url} documents its client errors`,
      );
    }
  });

  test('documents page[number] and the filters with their limits', () => {
    const leaderboard = document.paths['/shards/{shard}/leaderboards/{gameMode}']!.get!;
    const page = leaderboard.parameters!.find((p) => p.name === 'page[number]');
    assert.deepEqual(
      { in: page?.in, ...page?.schema },
      { in: 'query', type: 'integer', minimum: 0, maximum: 9 },
    );
    const search = document.paths['/shards/{shard}/players']!.get!.parameters!;
    for (const name of ['filter[playerNames]', 'filter[playerIds]']) {
      const filter = search.find((p) => p.name === name) as { description?: string } | undefined;
      assert.match(filter?.description ?? '', /at most 10/, name);
    }
    const samples = document.paths['/shards/{shard}/samples']!.get!.parameters!;
    assert.ok(samples.some((p) => p.name === 'filter[createdAt-start]'));
    const match = document.paths['/shards/{shard}/matches/{matchId}']!.get!.parameters!;
    assert.deepEqual(
      match.map((p) => [p.in, p.name, (p.schema as { maxLength?: number }).maxLength]),
      [
        ['path', 'shard', 100],
        ['path', 'matchId', 100],
      ],
    );
  });

  test('applies the bearer schemes to exactly the routes that answer 401 without a key', async () => {
    for (const [method, url, op] of operations(document)) {
      const keyed = (op.security ?? []).length > 0;
      const scheme = url.startsWith('/ingest/') ? 'ingestKey' : 'apiKey';
      const concrete = url.replace(/\{(\w+)\}/g, (_, name: string) => {
        const parameter = op.parameters?.find((p) => p.in === 'path' && p.name === name);
        return encodeURIComponent(parameter?.example ?? 'x');
      });
      const response = await t.app.inject({ method: method.toUpperCase() as 'GET', url: concrete });
      assert.equal(response.statusCode === 401, keyed, `${method} ${url}: ${response.statusCode}`);
      assert.deepEqual(op.security, keyed ? [{ [scheme]: [] }] : [], `${method} ${url}`);
      if (keyed) {
        for (const status of ['401', '429']) assert.ok(op.responses[status], `${url} ${status}`);
        for (const header of ['X-Ratelimit-Limit', 'X-Ratelimit-Remaining', 'X-Ratelimit-Reset']) {
          const success = op.responses['201'] ?? op.responses['200'];
          assert.ok(success?.headers?.[header as never], `${url} 2xx ${header}`);
          assert.ok(op.responses['429']?.headers?.[header as never], `${url} 429 ${header}`);
        }
        assert.ok(op.responses['429']?.headers?.['Retry-After' as never], `${url} Retry-After`);
      }
      for (const status of ['400', '503']) assert.ok(op.responses[status], `${url} ${status}`);
    }
  });

  test('without an upstream the match route, keyless, documents no 429', () => {
    const match = document.paths['/shards/{shard}/matches/{matchId}']!.get!;
    assert.equal(match.responses['429'], undefined);
    assert.doesNotMatch(JSON.stringify(match.responses['503']), /upstream/);
  });

  test('documents 415 exactly where Accept is negotiated', async () => {
    for (const [method, url, op] of operations(document)) {
      if (url.includes('{') || method !== 'get') continue;
      const response = await t.app.inject({ url, headers: { accept: 'text/html', ...t.auth } });
      assert.equal(response.statusCode === 415, '415' in op.responses, `${url}`);
    }
  });

  test('every documented example is valid against its schema', () => {
    for (const schema of DOCUMENT_SCHEMAS) {
      for (const example of (schema.examples as unknown[] | undefined) ?? []) {
        const errors = [...Value.Errors(schema, [...DOCUMENT_SCHEMAS], example)];
        assert.deepEqual(
          errors.map((e) => `${e.path}: ${e.message}`),
          [],
          schema.$id,
        );
      }
    }
  });

  test('passes redocly lint with the recommended rules', async () => {
    assert.deepEqual(await redoclyProblems(document), []);
  });
});

for (const database of testDatabases) {
  describe(`documented responses are what the routes send (${database.name})`, () => {
    let t: TestApp;
    let document: OpenApi;
    const requests = new Map<string, string>();
    before(async () => {
      t = await createTestApp(database);
      document = (await t.app.inject({ url: '/openapi.json' })).json();
      const now = t.clock.now();
      const played = (hoursAgo: number) => new Date(now - hoursAgo * HOUR).toISOString();
      const match = makeMatchInput({
        seed: 'openapi',
        telemetry: true,
        overrides: { gameMode: 'squad-fpp', regionShard: 'pc-eu', createdAt: played(30) },
      });
      await ingestMatch(t, match);
      await ingestMatch(
        t,
        makeMatchInput({
          seed: 'openapi-tournament',
          overrides: {
            platformShard: 'tournament',
            regionShard: 'pc-tournament',
            tournamentId: 'eu-cup5',
            createdAt: played(5),
          },
        }),
      );
      const clan = 'clan.0123456789abcdef0123456789abcdef';
      await ingestEntity(t, {
        kind: 'clan',
        platform: 'pc-b',
        id: clan,
        name: 'Night Owls',
        tag: 'OWL',
        level: 7,
        members: [accountId(0)],
      });
      await rebuildLeaderboards(t);
      await buildSamples(t);
      const seasons = (await t.app.inject({ url: '/shards/pc-b/seasons', headers: t.auth })).json();
      const season = seasons.data.find(
        (s: { attributes: { isCurrentSeason: boolean } }) => s.attributes.isCurrentSeason,
      ).id;
      const player = accountId(0);
      const matchDocument = (
        await t.app.inject({ url: `/shards/pc-b/matches/${match.id}` })
      ).json();
      const asset = matchDocument.included.find((r: { type: string }) => r.type === 'asset');
      const routes: Record<string, string> = {
        '/status': '/status',
        '/healthz': '/healthz',
        '/readyz': '/readyz',
        '/shards/{shard}/matches/{matchId}': `/shards/pc-b/matches/${match.id}`,
        '/shards/{shard}/players': '/shards/pc-b/players?filter[playerNames]=Player0,Player1',
        '/shards/{shard}/players/{accountId}': `/shards/pc-b/players/${player}`,
        '/shards/{shard}/seasons': '/shards/pc-b/seasons',
        '/shards/{shard}/players/{accountId}/seasons/{seasonId}': `/shards/pc-b/players/${player}/seasons/${season}`,
        '/shards/{shard}/seasons/{seasonId}/gameMode/{gameMode}/players': `/shards/pc-b/seasons/${season}/gameMode/squad-fpp/players?filter[playerIds]=${player}`,
        '/shards/{shard}/leaderboards/{gameMode}': '/shards/pc-b/leaderboards/squad-fpp',
        '/shards/{shard}/leaderboards/{seasonId}/{gameMode}': `/shards/pc-eu/leaderboards/${season}/squad-fpp`,
        '/shards/{shard}/samples': '/shards/pc-eu/samples',
        '/tournaments': '/tournaments',
        '/tournaments/{tournamentId}': '/tournaments/eu-cup5',
        '/shards/{shard}/players/{accountId}/seasons/{seasonId}/ranked': `/shards/pc-b/players/${player}/seasons/${season}/ranked`,
        '/shards/{shard}/clans/{clanId}': `/shards/pc-b/clans/${clan}`,
        '/telemetry/bluehole-pubg/{shard}/{yyyy}/{mm}/{dd}/{hh}/{min}/{file}': new URL(
          asset.attributes.URL,
        ).pathname,
      };
      for (const [route, url] of Object.entries(routes)) requests.set(route, url);
    });
    after(() => t.close());

    test('each 200 matches the documented schema', async () => {
      for (const [route, url] of requests) {
        const response = await t.app.inject({ url, headers: t.auth });
        assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
        const schema = documentedSchema(document.paths[route]!.get!, '200');
        const body = response.json();
        const errors = [...Value.Errors(schema, [...DOCUMENT_SCHEMAS], body)];
        assert.deepEqual(
          errors.map((e) => `${e.path}: ${e.message}`),
          [],
          url,
        );
      }
      // Lifetime stats share the season route's schema.
      const lifetime = await t.app.inject({
        url: `/shards/pc-b/players/${accountId(0)}/seasons/lifetime`,
        headers: t.auth,
      });
      const schema = documentedSchema(
        document.paths['/shards/{shard}/players/{accountId}/seasons/{seasonId}']!.get!,
        '200',
      );
      assert.ok(Value.Check(schema, [...DOCUMENT_SCHEMAS], lifetime.json()));
    });

    test('each documented error is an error document', async () => {
      const errors = [
        ['/shards/{shard}/matches/{matchId}', '/shards/pc-b/matches/nope', '404'],
        ['/shards/{shard}/players', '/shards/pc-b/players', '400'],
        ['/shards/{shard}/seasons', '/shards/pc-b/seasons', '401'],
      ] as const;
      for (const [route, url, status] of errors) {
        const response = await t.app.inject({
          url,
          headers: status === '401' ? {} : t.auth,
        });
        assert.equal(String(response.statusCode), status, url);
        const schema = documentedSchema(document.paths[route]!.get!, status);
        assert.ok(Value.Check(schema, [...DOCUMENT_SCHEMAS], response.json()), url);
      }
    });

    test('response schemas never re-serialize what the routes send', async () => {
      const status = await t.app.inject({ url: '/status' });
      assert.equal(status.body, renderStatus());
      const match = await t.app.inject({ url: requests.get('/shards/{shard}/matches/{matchId}')! });
      const again = await t.app.inject({ url: requests.get('/shards/{shard}/matches/{matchId}')! });
      assert.ok(match.rawPayload.equals(again.rawPayload));
      // Members the schemas do not list would be dropped by a schema-driven serializer.
      assert.ok(match.body.includes('"links":{"self"'), 'links kept');
    });
  });
}

/** Problems redocly's recommended rules find in `document` (none: an empty list). */
async function redoclyProblems(document: OpenApi): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(document));
    const { stdout } = await promisify(execFile)(
      REDOCLY,
      ['lint', file, '--extends', 'recommended', '--format', 'json'],
      {
        timeout: 60_000,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout) as {
      problems: Array<{ ruleId: string; severity: string; message: string }>;
    };
    return report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('/openapi.json with an upstream configured', () => {
  let t: TestApp;
  let document: OpenApi;
  before(async () => {
    t = await createTestApp(testDatabases[0]!, {
      UPSTREAM_URL: 'http://127.0.0.1:9',
      UPSTREAM_API_KEYS: 'upstream-key',
    });
    document = (await t.app.inject({ url: '/openapi.json' })).json();
  });
  after(() => t.close());

  test('the match route lists the 429 and 503 of reading through, with Retry-After', async () => {
    const match = document.paths['/shards/{shard}/matches/{matchId}']!.get!;
    for (const status of ['429', '503']) {
      const response = match.responses[status] as { description: string; headers?: object };
      assert.ok(response, status);
      assert.match(response.description, /upstream/);
      assert.ok(response.headers && 'Retry-After' in response.headers, status);
    }
    const player = document.paths['/shards/{shard}/players/{accountId}']!.get!;
    assert.match((player.responses['429'] as { description: string }).description, /upstream/);
    assert.ok(!JSON.stringify(document).includes('upstream-key'), 'the key is not documented');
  });

  test('passes redocly lint with the recommended rules', async () => {
    assert.deepEqual(await redoclyProblems(document), []);
  });
});
