import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { gzipDocument } from '../../src/http/precompressed.ts';

test('a document is gzipped to the same bytes in the thread or on the pool, whatever its size', async () => {
  // Text-like bytes of sizes below, at and above the in-thread limit (64 KB).
  for (const size of [0, 1, 4_000, 64 * 1024, 64 * 1024 + 1, 300_000]) {
    const body = Buffer.from(crypto.randomBytes(size).toString('base64').slice(0, size));
    const gzipped = await gzipDocument(body);
    assert.deepEqual(zlib.gunzipSync(gzipped), body, `${size} bytes round trip`);
    assert.deepEqual(
      gzipped,
      await new Promise((resolve, reject) =>
        zlib.gzip(body, (e, out) => (e ? reject(e) : resolve(out))),
      ),
      `${size} bytes as zlib's gzip`,
    );
  }
});
