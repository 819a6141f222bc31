/**
 * Telemetry files from memory (TELEMETRY_CACHE_MB): a file streamed once is answered from memory
 * with the same bytes and headers, without the blob store; the byte budget holds; 0 turns the
 * cache off; and a file whose match left retention is never served from memory.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { findTelemetryAsset } from '../../src/store/telemetry.ts';
import { purgeExpired } from '../../src/jobs/purge-expired.ts';
import { TelemetryCache } from '../../src/http/telemetry-cache.ts';

const DAY_MS = 86_400_000;

/** Ingests a match with telemetry; returns its file's URL path and blob key. */
async function ingestWithFile(t: TestApp, seed: string): Promise<{ path: string; key: string }> {
  const input = makeMatchInput({
    seed,
    telemetry: true,
    overrides: { createdAt: new Date(t.clock.now() - DAY_MS).toISOString() },
  });
  await ingestMatch(t, input);
  const document = (await t.app.inject({ url: `/shards/pc-b/matches/${input.id}` })).json();
  const asset = document.included.find((r: { type: string }) => r.type === 'asset');
  const path = String(asset.attributes.URL).slice(TEST_BASE_URL.length);
  const stored = await findTelemetryAsset(t.store.db, asset.id);
  return { path, key: stored!.telemetryKey! };
}

const withoutDate = (headers: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'date'));

/** Reads a stream to its end, as a client would. */
const drain = async (source: AsyncIterable<Buffer>): Promise<void> => {
  for await (const chunk of source) void chunk;
};

for (const database of testDatabases) {
  describe(`telemetry files from memory (${database.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(database);
    });
    after(() => t.close());

    test('a file streamed once is served from memory: same bytes and headers, no blob store', async () => {
      const { path, key } = await ingestWithFile(t, 'telemetry-cache-hit');
      const gzip = { 'accept-encoding': 'gzip' };
      const streamed = await t.app.inject({ url: path, headers: gzip });
      const streamedPlain = await t.app.inject({ url: path });
      assert.equal(streamed.statusCode, 200);
      // Gone from the blob store: only memory can answer now.
      await t.blobs.delete(key);
      const cached = await t.app.inject({ url: path, headers: gzip });
      assert.equal(cached.statusCode, 200);
      assert.deepEqual(cached.rawPayload, streamed.rawPayload);
      assert.deepEqual(withoutDate(cached.headers), withoutDate(streamed.headers));
      const cachedPlain = await t.app.inject({ url: path });
      assert.deepEqual(cachedPlain.rawPayload, streamedPlain.rawPayload);
      assert.equal(cachedPlain.headers['content-encoding'], undefined);
      const etag = String(cached.headers.etag);
      const notModified = await t.app.inject({
        url: path,
        headers: { ...gzip, 'if-none-match': etag },
      });
      assert.equal(notModified.statusCode, 304);
      // The URL must still name the file exactly.
      const wrongShard = path.replace('/pc-b/', '/console-a/');
      assert.equal((await t.app.inject({ url: wrongShard })).statusCode, 404);
      const wrongYear = path.replace(/\/(\d{4})\//, (_, y: string) => `/${Number(y) - 1}/`);
      assert.equal((await t.app.inject({ url: wrongYear })).statusCode, 404);
    });

    test('a file whose match left retention is not served from memory, and the purge removes it', async () => {
      const { path } = await ingestWithFile(t, 'telemetry-cache-retention');
      assert.equal((await t.app.inject({ url: path })).statusCode, 200);
      const now = t.clock.now();
      try {
        t.clock.set(now + 14 * DAY_MS);
        assert.ok((await purgeExpired(t)).matches >= 1);
        assert.equal((await t.app.inject({ url: path })).statusCode, 404);
      } finally {
        t.clock.set(now);
      }
      assert.equal((await t.app.inject({ url: path })).statusCode, 404, 'not even back in time');
    });
  });

  test(`[${database.name}] TELEMETRY_CACHE_MB=0 streams every request from the blob store`, async () => {
    const t = await createTestApp(database, { TELEMETRY_CACHE_MB: '0' });
    try {
      const { path, key } = await ingestWithFile(t, 'telemetry-cache-off');
      const headers = { 'accept-encoding': 'gzip' };
      assert.equal((await t.app.inject({ url: path, headers })).statusCode, 200);
      assert.equal((await t.app.inject({ url: path, headers })).statusCode, 200);
      await t.blobs.delete(key);
      assert.equal((await t.app.inject({ url: path, headers })).statusCode, 404);
    } finally {
      await t.close();
    }
  });
}

/** Streams `size` bytes of a file through the cache's tap, as a response would. */
async function streamThrough(cache: TelemetryCache, assetId: string, size: number): Promise<void> {
  const facts = { platform: 'pc-b', assetCreatedAt: 0, expiresAt: Infinity };
  const tap = cache.tap(size, assetId, facts);
  if (tap === null) return;
  await pipeline(Readable.from([Buffer.alloc(size, 1)], { objectMode: false }), tap, drain);
}

test('the cache holds at most its budget, drops files nobody reads first, and keeps no partial file', async () => {
  const budget = 64 * 1024;
  const cache = new TelemetryCache(budget);
  await streamThrough(cache, 'a', 20_000);
  await streamThrough(cache, 'b', 20_000);
  await streamThrough(cache, 'c', 20_000);
  assert.ok(cache.get('a', 0), 'a is cached');
  // d does not fit beside the other three: b, read by nobody, goes first (a was just read).
  await streamThrough(cache, 'd', 20_000);
  assert.ok(cache.documents.size <= budget, `${cache.documents.size} bytes held`);
  assert.equal(cache.get('b', 0), undefined);
  assert.ok(cache.get('a', 0) && cache.get('d', 0));
  assert.deepEqual(cache.get('d', 0)!.gzip, Buffer.alloc(20_000, 1));

  await streamThrough(cache, 'huge', budget + 1);
  assert.equal(cache.get('huge', 0), undefined, 'a file over the budget is not kept');
  // A stream that ends short of the announced size (a cut download) is not kept either.
  const tap = cache.tap(30_000, 'short', { platform: 'pc-b', assetCreatedAt: 0, expiresAt: 1 });
  await pipeline(Readable.from([Buffer.alloc(10)], { objectMode: false }), tap!, drain);
  assert.equal(cache.get('short', 0), undefined);
  assert.equal(
    new TelemetryCache(0).tap(1, 'x', { platform: 'pc-b', assetCreatedAt: 0, expiresAt: 1 }),
    null,
  );
});
