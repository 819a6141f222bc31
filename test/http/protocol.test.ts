import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp(testDatabases[0]!);
});
after(() => t.close());

test('status answers without a key, as vnd.api+json by default', async () => {
  const response = await t.app.inject({ url: '/status' });
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers['content-type'], 'application/vnd.api+json');
  const body = response.json();
  assert.equal(body.data.type, 'status');
  assert.equal(body.data.id, 'pubg-api');
  assert.match(body.data.attributes.releasedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(response.headers['x-ratelimit-limit'], undefined);
});

test('Content-Type mirrors the accepted media type', async () => {
  for (const [accept, expected] of [
    ['application/json', 'application/json'],
    ['application/vnd.api+json', 'application/vnd.api+json'],
    ['*/*', 'application/vnd.api+json'],
    ['application/json, text/plain, */*', 'application/json'],
    // The charset JSON always has, as some HTTP clients send by default.
    ['application/json; charset=utf-8', 'application/json'],
    ['application/json;charset=UTF-8', 'application/json'],
  ]) {
    const response = await t.app.inject({ url: '/status', headers: { accept } });
    assert.equal(response.statusCode, 200, accept);
    assert.equal(response.headers['content-type'], expected, accept);
  }
});

test('a foreign Accept gets a JSON:API 415', async () => {
  const response = await t.app.inject({ url: '/status', headers: { accept: 'text/html' } });
  assert.equal(response.statusCode, 415);
  assert.deepEqual(response.json(), {
    errors: [
      { title: 'Unsupported media type', detail: 'Content type incorrect or not specified' },
    ],
  });
});

test('unknown routes get a JSON:API 404, never HTML', async () => {
  const response = await t.app.inject({ url: '/no/such/thing' });
  assert.equal(response.statusCode, 404);
  assert.equal(response.headers['content-type'], 'application/vnd.api+json');
  const body = response.json();
  assert.equal(body.errors[0].title, 'Not Found');
  assert.equal(body.data, undefined);
  assert.equal(body.included, undefined);
});

test('gzip is applied whenever it is accepted, whatever the size, and only then', async () => {
  const gzipped = await t.app.inject({ url: '/status', headers: { 'accept-encoding': 'gzip' } });
  assert.equal(gzipped.headers['content-encoding'], 'gzip');
  assert.equal(JSON.parse(zlib.gunzipSync(gzipped.rawPayload).toString()).data.type, 'status');
  const brotliOnly = await t.app.inject({
    url: '/status',
    headers: { 'accept-encoding': 'gzip, deflate, br' },
  });
  assert.equal(brotliOnly.headers['content-encoding'], 'gzip');
  const plain = await t.app.inject({ url: '/status' });
  assert.equal(plain.headers['content-encoding'], undefined);
});

test('simple cross-origin requests expose Content-Length to any origin', async () => {
  const response = await t.app.inject({
    url: '/status',
    headers: { origin: 'https://example.org' },
  });
  assert.equal(response.headers['access-control-allow-origin'], '*');
  assert.equal(response.headers['access-control-expose-headers'], 'Content-Length');
});

test('the CORS preflight answers 200 with the spec headers', async () => {
  const response = await t.app.inject({
    method: 'OPTIONS',
    url: '/shards/pc-b/players',
    headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
  });
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers['access-control-allow-origin'], '*');
  assert.equal(
    response.headers['access-control-allow-headers'],
    'Origin, X-Title-Id, Authorization',
  );
  assert.equal(response.headers['access-control-allow-methods'], 'GET, POST, OPTIONS');
  assert.equal(response.headers['access-control-max-age'], '86400');
});

test('health probes answer without a key and without limits', async () => {
  for (const url of ['/healthz', '/readyz']) {
    const response = await t.app.inject({ url });
    assert.equal(response.statusCode, 200, url);
    assert.equal(response.json().data.attributes.status, 'ok');
    assert.equal(response.headers['x-ratelimit-limit'], undefined);
  }
});

test('readiness fails with a JSON:API 503 once the store is gone', async () => {
  const own = await createTestApp(testDatabases[0]!);
  await own.store.close();
  const response = await own.app.inject({ url: '/readyz' });
  assert.equal(response.statusCode, 503);
  assert.equal(response.json().errors[0].title, 'Service Unavailable');
  await own.app.close();
});

test('the OpenAPI document lists the spec endpoints with their parameters', async () => {
  const response = await t.app.inject({ url: '/openapi.json' });
  assert.equal(response.statusCode, 200);
  const document = response.json();
  assert.equal(document.openapi, '3.1.0');
  for (const route of [
    '/shards/{shard}/players',
    '/shards/{shard}/players/{accountId}',
    '/shards/{shard}/matches/{matchId}',
    '/shards/{shard}/leaderboards/{gameMode}',
    '/shards/{shard}/samples',
    '/tournaments',
    '/status',
  ]) {
    assert.ok(document.paths[route], `${route} is documented`);
  }
  const filters = document.paths['/shards/{shard}/players'].get.parameters.map(
    (parameter: { name: string }) => parameter.name,
  );
  assert.ok(filters.includes('filter[playerNames]'));
});
