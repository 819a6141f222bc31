import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

type Operation = { responses: Record<string, { description: string; headers?: object }> };

/** Every route that reads through to the upstream when one is configured. */
const READ_THROUGH_PATHS = [
  '/shards/{shard}/matches/{matchId}',
  '/shards/{shard}/players',
  '/shards/{shard}/players/{accountId}',
  '/shards/{shard}/players/{accountId}/seasons/{seasonId}',
  '/shards/{shard}/players/{accountId}/seasons/{seasonId}/ranked',
  '/shards/{shard}/seasons/{seasonId}/gameMode/{gameMode}/players',
  '/shards/{shard}/players/{accountId}/weapon_mastery',
  '/shards/{shard}/players/{accountId}/survival_mastery',
  '/shards/{shard}/clans/{clanId}',
  '/shards/{shard}/seasons',
  '/shards/{shard}/leaderboards/{gameMode}',
  '/shards/{shard}/leaderboards/{seasonId}/{gameMode}',
  '/shards/{shard}/samples',
];

describe('/openapi.json with an upstream: every read-through route documents its 429 and 503', () => {
  let t: TestApp;
  let paths: Record<string, { get?: Operation }>;
  before(async () => {
    t = await createTestApp(testDatabases[0]!, {
      UPSTREAM_URL: 'http://127.0.0.1:9',
      UPSTREAM_API_KEYS: 'upstream-key',
    });
    paths = (await t.app.inject({ url: '/openapi.json' })).json().paths;
  });
  after(() => t.close());

  test('each names the upstream as a cause, with Retry-After', () => {
    const telemetry = Object.keys(paths).find((path) => path.startsWith('/telemetry/'));
    for (const path of [...READ_THROUGH_PATHS, telemetry!]) {
      const operation = paths[path]?.get;
      assert.ok(operation, path);
      for (const status of ['429', '503']) {
        const response = operation.responses[status];
        assert.ok(response, `${path} ${status}`);
        assert.match(response.description, /upstream/, `${path} ${status}`);
        assert.ok(response.headers && 'Retry-After' in response.headers, `${path} ${status}`);
      }
    }
  });
});
