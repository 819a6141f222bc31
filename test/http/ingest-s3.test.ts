/**
 * Telemetry sent after its match, into a real S3 API (s3rver on 127.0.0.1) that a CDN-like
 * TELEMETRY_BASE_URL serves directly: the bucket holds the exact gzip bytes sent, and an object
 * store down at that moment refuses the attach with a 503, leaving the match as it was.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { makeMatchInput, sampleTelemetry } from '../helpers/matches.ts';
import { startS3Server, useS3rverCredentials, type S3Server } from '../helpers/s3-server.ts';
import { createApiKey } from '../../src/store/api-keys.ts';

const BUCKET = 'ingest-telemetry';
const CREATED_AT = '2026-11-20T09:00:00Z';

useS3rverCredentials();

/** GET with node:http, which hands over the bytes as sent (gzip stays gzip). */
function rawGet(url: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

let s3: S3Server;
before(async () => {
  s3 = await startS3Server([BUCKET]);
});
after(() => s3.close());

for (const database of testDatabases) {
  describe(`telemetry attached over HTTP into object storage (${database.name})`, () => {
    let t: TestApp;
    let headers: Record<string, string>;

    before(async () => {
      t = await createTestApp(database, {
        BLOB_STORE_URL: `s3://${BUCKET}`,
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        S3_TIMEOUT_MS: '400',
        TELEMETRY_BASE_URL: `${s3.endpoint}/${BUCKET}`,
      });
      const { key } = await createApiKey(t.store.db, {
        name: 'game-server',
        scope: 'ingest',
        ratePerMinute: 1000,
        now: t.clock.now(),
      });
      headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    });
    after(() => t.close());

    test('a store outage refuses the attach with 503; once back, the bucket has the bytes sent', async () => {
      const input = makeMatchInput({
        seed: `${database.name}-ingest-s3`,
        overrides: { createdAt: CREATED_AT },
      });
      const posted = await t.app.inject({
        method: 'POST',
        url: '/ingest/matches',
        headers,
        payload: JSON.stringify(input),
      });
      assert.equal(posted.statusCode, 201);
      const file = zlib.gzipSync(
        JSON.stringify(sampleTelemetry(input.id, Date.parse(CREATED_AT)), null, 1),
      );
      const put = () =>
        t.app.inject({
          method: 'PUT',
          url: `/ingest/matches/${input.id}/telemetry`,
          headers: { ...headers, 'content-encoding': 'gzip' },
          payload: file,
        });

      await s3.kill();
      try {
        const refused = await put();
        assert.equal(refused.statusCode, 503);
        assert.ok(Number(refused.headers['retry-after']) >= 1);
        assert.equal(refused.json().errors[0].title, 'Service Unavailable');
      } finally {
        await s3.restart();
      }
      const pending = (await t.app.inject({ url: `/shards/pc-b/matches/${input.id}` })).json();
      assert.deepEqual(pending.data.relationships.assets.data, [], 'no asset after the refusal');

      const attached = await put();
      assert.equal(attached.statusCode, 201, attached.body);
      const document = (await t.app.inject({ url: `/shards/pc-b/matches/${input.id}` })).json();
      const asset = document.included.find((r: { type: string }) => r.type === 'asset');
      assert.ok(asset.attributes.URL.startsWith(`${s3.endpoint}/${BUCKET}/bluehole-pubg/pc-b/`));
      const fromBucket = await rawGet(asset.attributes.URL);
      assert.equal(fromBucket.status, 200);
      assert.ok(fromBucket.body.equals(file), 'the bucket serves the gzip file exactly as sent');
    });
  });
}
