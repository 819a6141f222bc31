/**
 * The fast path reads a request's headers from `rawHeaders` (src/http/plain-headers.ts): names
 * in any case, the same values Node's `request.headers` holds, and anything it would not decide
 * alike (a repeat, a conditional request, a body, no Host) refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readPlainHeaders, type PlainHeaders } from '../../src/http/plain-headers.ts';

const read = (raw: string[]): PlainHeaders | null => {
  const into: PlainHeaders = { accept: 'x', acceptEncoding: 'x', authorization: 'x' };
  return readPlainHeaders(raw, into) ? into : null;
};

test('reads Accept, Accept-Encoding and Authorization in any spelling', () => {
  assert.deepEqual(
    read([
      'Host',
      'a',
      'Accept-Encoding',
      'gzip',
      'AUTHORIZATION',
      'Bearer k',
      'aCcEpT',
      'application/json',
    ]),
    { accept: 'application/json', acceptEncoding: 'gzip', authorization: 'Bearer k' },
  );
  assert.deepEqual(read(['host', 'a', 'user-agent', 'wrk', 'x-accept', 'y']), {
    accept: undefined,
    acceptEncoding: undefined,
    authorization: undefined,
  });
  assert.deepEqual(read(['HOST', 'a', 'accept-encoding', '']), {
    accept: undefined,
    acceptEncoding: '',
    authorization: undefined,
  });
});

test('refuses what Fastify must decide', () => {
  const cases: string[][] = [
    [],
    ['user-agent', 'x'],
    ['Host', 'a', 'If-None-Match', '"x"'],
    ['Host', 'a', 'content-length', '0'],
    ['Host', 'a', 'Transfer-Encoding', 'chunked'],
    ['Host', 'a', 'EXPECT', '100-continue'],
    ['Host', 'a', 'Host', 'b'],
    ['Host', 'a', 'Accept', 'application/json', 'accept', 'application/vnd.api+json'],
    ['Host', 'a', 'Accept-Encoding', 'gzip', 'Accept-Encoding', 'br'],
    ['Host', 'a', 'Authorization', 'Bearer a', 'authorization', 'Bearer b'],
  ];
  for (const raw of cases) assert.equal(read(raw), null, JSON.stringify(raw));
});
