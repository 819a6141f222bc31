import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import type { MatchInput } from '../../src/ingest/match-input.ts';
import { findTelemetryAsset } from '../../src/store/telemetry.ts';
import { telemetryUrl } from '../../src/presenters/telemetry-url.ts';

const DAY_MS = 86_400_000;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

for (const database of testDatabases) {
  describe(`GET <telemetry URL of a match asset> (${database.name})`, () => {
    let t: TestApp;
    let match: MatchInput;
    let createdAt: number;
    /** The path of the asset's URL, as the match document names it. */
    let telemetryPath: string;
    let assetId: string;

    async function assetUrl(matchId: string, shard = 'pc-b'): Promise<string> {
      const document = (await t.app.inject({ url: `/shards/${shard}/matches/${matchId}` })).json();
      const asset = document.included.find(
        (resource: { type: string }) => resource.type === 'asset',
      );
      return asset.attributes.URL as string;
    }

    before(async () => {
      t = await createTestApp(database);
      createdAt = t.clock.now() - DAY_MS;
      match = makeMatchInput({
        seed: 'telemetry-route',
        telemetry: true,
        overrides: { createdAt: new Date(createdAt).toISOString() },
      });
      await ingestMatch(t, match);
      const url = await assetUrl(match.id);
      assert.ok(url.startsWith(`${TEST_BASE_URL}/telemetry/`), url);
      telemetryPath = url.slice(TEST_BASE_URL.length);
      assetId = /([^/]+)-telemetry\.json$/.exec(url)![1]!;
    });
    after(() => t.close());

    test('sends the stored gzip file as it is to clients that accept gzip', async () => {
      const response = await t.app.inject({
        url: telemetryPath,
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(response.headers['content-encoding'], 'gzip');
      const asset = await findTelemetryAsset(t.store.db, assetId);
      const stored = await readAll((await t.blobs.get(asset!.telemetryKey!))!.stream);
      assert.equal(Number(response.headers['content-length']), stored.length);
      assert.deepEqual(response.rawPayload, stored);
    });

    test('decompresses while streaming for clients that do not accept gzip', async () => {
      const response = await t.app.inject({ url: telemetryPath });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(response.headers['content-encoding'], undefined);
      assert.deepEqual(response.json(), match.telemetry);
    });

    test('needs no key and serves whatever the client accepts', async () => {
      const response = await t.app.inject({
        url: telemetryPath,
        headers: { accept: 'text/html', authorization: 'Bearer whatever' },
      });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(response.headers['x-ratelimit-limit'], undefined);
    });

    test('carries a strong ETag, answers If-None-Match with 304, and may be cached until it expires', async () => {
      const response = await t.app.inject({
        url: telemetryPath,
        headers: { 'accept-encoding': 'gzip' },
      });
      const etag = String(response.headers.etag);
      assert.match(etag, /^"[^"]+"$/);
      const notModified = await t.app.inject({
        url: telemetryPath,
        headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
      });
      assert.equal(notModified.statusCode, 304);
      assert.equal(notModified.rawPayload.length, 0);
      const maxAge = Number(/max-age=(\d+)/.exec(String(response.headers['cache-control']))?.[1]);
      assert.ok(maxAge > 0 && maxAge <= (createdAt + 14 * DAY_MS - t.clock.now()) / 1000);
    });

    test('a match asked for by an alias names the same URL, and alias spellings of it resolve', async () => {
      assert.equal(await assetUrl(match.id, 'steam'), `${TEST_BASE_URL}${telemetryPath}`);
      // Documents rendered before URLs named the canonical platform spelled it as asked.
      const aliased = telemetryPath.replace('/pc-b/', '/steam/');
      const response = await t.app.inject({ url: aliased });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), match.telemetry);
    });

    test('an unknown asset is a 404 JSON:API error', async () => {
      const response = await t.app.inject({
        url: telemetryPath.replace(assetId, '00000000-0000-1000-8000-000000000000'),
      });
      assert.equal(response.statusCode, 404);
      const body = response.json();
      assert.equal(body.errors[0].title, 'Not Found');
      assert.equal(body.data, undefined);
    });

    test('a URL whose shard, date or file name disagrees with the asset is a 404', async () => {
      const wrong = [
        telemetryPath.replace('/pc-b/', '/console-a/'),
        telemetryPath.replace('/pc-b/', '/moon/'),
        telemetryPath.replace(/\/(\d{4})\//, (_, year: string) => `/${Number(year) - 1}/`),
        telemetryPath.replace('-telemetry.json', '.json'),
      ];
      for (const url of wrong) {
        assert.equal((await t.app.inject({ url })).statusCode, 404, url);
      }
    });

    test('a match without telemetry has no file', async () => {
      const bare = makeMatchInput({
        seed: 'telemetry-route-none',
        overrides: { createdAt: new Date(createdAt).toISOString() },
      });
      await ingestMatch(t, bare);
      // Its document names no asset; the URL the asset would have answers 404.
      const document = (await t.app.inject({ url: `/shards/pc-b/matches/${bare.id}` })).json();
      assert.deepEqual(document.data.relationships.assets.data, []);
      const row = await t.store.db
        .selectFrom('matches')
        .select(['asset_id', 'asset_created_at'])
        .where('id', '=', bare.id)
        .executeTakeFirstOrThrow();
      const url = telemetryUrl('/telemetry', 'pc-b', row.asset_created_at, row.asset_id);
      assert.equal((await t.app.inject({ url })).statusCode, 404);
    });

    test('is gone once the match is past retention', async () => {
      const now = t.clock.now();
      try {
        t.clock.set(createdAt + 14 * DAY_MS + 1);
        assert.equal((await t.app.inject({ url: telemetryPath })).statusCode, 404);
      } finally {
        t.clock.set(now);
      }
    });

    /** Ingests a match with these telemetry events and returns its URL path and blob key. */
    async function ingestWithTelemetry(
      seed: string,
      events: MatchInput['telemetry'],
    ): Promise<[string, string]> {
      const input = makeMatchInput({
        seed,
        telemetry: events,
        overrides: { createdAt: new Date(createdAt).toISOString() },
      });
      await ingestMatch(t, input);
      const url = new URL(await assetUrl(input.id)).pathname;
      const asset = await findTelemetryAsset(t.store.db, /([^/]+)-telemetry\.json$/.exec(url)![1]!);
      return [url, asset!.telemetryKey!];
    }

    async function corruptBlob(key: string, keepBytes: number): Promise<void> {
      const valid = await readAll((await t.blobs.get(key))!.stream);
      await t.blobs.delete(key);
      await t.blobs.put(
        key,
        Buffer.concat([valid.subarray(0, keepBytes), Buffer.alloc(65_536, 7)]),
      );
    }

    test('a file corrupt from its start is a 500 JSON:API error', async () => {
      const [url, key] = await ingestWithTelemetry('telemetry-route-corrupt-head', match.telemetry);
      await corruptBlob(key, 10); // a gzip header, then garbage
      const response = await t.app.inject({ url });
      assert.equal(response.statusCode, 500);
      assert.equal(response.json().errors[0].title, 'Internal Server Error');
      assert.equal((await t.app.inject({ url: telemetryPath })).statusCode, 200);
    });

    test('a file corrupt in its middle cuts the download, and the server carries on', async () => {
      const events = Array.from({ length: 20_000 }, (_, i) => ({
        _T: 'LogPlayerPosition',
        _D: new Date(createdAt + i).toISOString(),
        elapsedTime: i,
        location: { x: (i * 7919) % 81920, y: (i * 104729) % 81920, z: 1000 },
      }));
      const [url, key] = await ingestWithTelemetry('telemetry-route-corrupt-middle', events);
      const stored = await readAll((await t.blobs.get(key))!.stream);
      await corruptBlob(key, Math.floor(stored.length / 2));
      await assert.rejects(t.app.inject({ url }), /destroyed|ECONNRESET/);
      assert.equal((await t.app.inject({ url: telemetryPath })).statusCode, 200);
    });
  });
}
