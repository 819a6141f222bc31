import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { receiveBody } from '../../src/http/body-receipt.ts';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp } from '../helpers/app.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { listenOnFreePort } from '../helpers/raw-http.ts';
import { createApiKey } from '../../src/store/api-keys.ts';

type Payload = PassThrough & { receivedEncodedLength?: number };

/** Feeds `chunks` to receiveBody as the socket's stream (or a decompressing one) would. */
function receive(
  chunks: Array<string | Error>,
  options: { contentLength?: number; limit?: number; decompressed?: number } = {},
): Promise<{ error: (Error & { code?: string; statusCode?: number }) | null; body?: Buffer }> {
  const raw = new PassThrough();
  const payload: Payload = options.decompressed === undefined ? raw : new PassThrough();
  const headers: Record<string, string> = {};
  if (options.contentLength !== undefined)
    headers['content-length'] = String(options.contentLength);
  const request = {
    raw,
    headers,
    routeOptions: { bodyLimit: options.limit ?? 1_000 },
  } as unknown as FastifyRequest;
  return new Promise((resolve) => {
    receiveBody(request, payload, (error, body) => resolve({ error, ...(body ? { body } : {}) }));
    // A decompressing stream counts the bytes it read before it gives out what they inflate to.
    if (options.decompressed !== undefined) payload.receivedEncodedLength = options.decompressed;
    for (const chunk of chunks) {
      if (chunk instanceof Error) payload.destroy(chunk);
      else payload.write(chunk);
    }
    if (!chunks.some((chunk) => chunk instanceof Error)) payload.end();
  });
}

test('a body of announced size is received into a buffer of its own, chunk by chunk', async () => {
  const { error, body } = await receive(['{"a":', '1,"b"', ':[2]}'], { contentLength: 15 });
  assert.equal(error, null);
  assert.equal(body!.toString(), '{"a":1,"b":[2]}');
  // The whole of its memory: a worker can take it over without a copy.
  assert.equal(body!.buffer.byteLength, body!.length);
});

test('a body of unknown size, or decompressed on its way, is joined at its end', async () => {
  const chunked = await receive(['[1,', '2]']);
  assert.equal(chunked.body!.toString(), '[1,2]');
  const inflated = await receive(['[1,2,', '3]'], { contentLength: 4, decompressed: 4 });
  assert.equal(inflated.error, null);
  assert.equal(inflated.body!.toString(), '[1,2,3]');
});

test("Fastify's errors: too large (announced or counted), length not as announced, a broken stream", async () => {
  const announced = await receive(['x'], { contentLength: 2_000 });
  assert.equal(announced.error?.code, 'FST_ERR_CTP_BODY_TOO_LARGE');
  const counted = await receive(['x'.repeat(600), 'y'.repeat(600)]);
  assert.equal(counted.error?.code, 'FST_ERR_CTP_BODY_TOO_LARGE');
  const bomb = await receive(['x'], { decompressed: 5_000 });
  assert.equal(bomb.error?.code, 'FST_ERR_CTP_BODY_TOO_LARGE');
  const short = await receive(['12345'], { contentLength: 8 });
  assert.equal(short.error?.code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH');
  const broken = await receive(['12', new Error('the client went away')], { contentLength: 8 });
  assert.equal(broken.error?.message, 'the client went away');
  assert.equal(broken.error?.statusCode, 400);
});

for (const database of testDatabases) {
  test(`[${database.name}] a match posted in pieces over a socket is stored whole`, async () => {
    const t = await createTestApp(database);
    try {
      const { key } = await createApiKey(t.store.db, {
        name: 'game-server',
        scope: 'ingest',
        ratePerMinute: 100,
        now: t.clock.now(),
      });
      const input = makeMatchInput({ seed: 'in-pieces', telemetry: true });
      const bytes = Buffer.from(JSON.stringify(input));
      const port = await listenOnFreePort(t.app);
      const status = await new Promise<number>((resolve, reject) => {
        const request = http.request(
          {
            port,
            host: '127.0.0.1',
            method: 'POST',
            path: '/ingest/matches',
            headers: {
              authorization: `Bearer ${key}`,
              'content-type': 'application/json',
              'content-length': bytes.length,
            },
          },
          (response) => {
            response.resume();
            resolve(response.statusCode!);
          },
        );
        request.on('error', reject);
        // Four pieces, each written once the previous one has left.
        const piece = Math.ceil(bytes.length / 4);
        const write = (offset: number): void => {
          if (offset >= bytes.length) {
            request.end();
            return;
          }
          request.write(bytes.subarray(offset, offset + piece), () =>
            setTimeout(() => write(offset + piece), 5),
          );
        };
        write(0);
      });
      assert.equal(status, 201);
      const stored = await t.app.inject({ url: `/shards/pc-b/matches/${input.id}` });
      assert.equal(stored.statusCode, 200);
      assert.equal(stored.json().data.id, input.id);
    } finally {
      await t.close();
    }
  });
}
