import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import {
  listenOnFreePort,
  openConnection,
  parseRawResponse,
  rawRequest,
  type RawResponse,
} from '../helpers/raw-http.ts';
import { parseExposition, sampleValue } from '../helpers/prometheus.ts';

let t: TestApp;
let port: number;
before(async () => {
  t = await createTestApp(testDatabases[0]!);
  port = await listenOnFreePort(t.app);
});
after(() => t.close());

/** A request with a Host header that asks the server to close the connection after answering. */
const request = (line: string, ...headers: string[]): string =>
  `${line}\r\nHost: 127.0.0.1\r\n${headers.map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n`;

/** Asserts a JSON:API error document of this status, and returns its one error. */
function assertJsonApiError(
  response: RawResponse,
  status: number,
): { title: string; detail: string } {
  assert.equal(response.status, status, response.body);
  assert.equal(response.headers['content-type'], 'application/vnd.api+json');
  const document = JSON.parse(response.body);
  assert.deepEqual(Object.keys(document), ['errors']);
  assert.equal(document.errors.length, 1);
  const [error] = document.errors;
  assert.deepEqual(Object.keys(error).sort(), ['detail', 'title']);
  assert.equal(typeof error.title, 'string');
  assert.ok(error.detail.length > 0);
  return error;
}

test('a malformed %-encoding in the path is a JSON:API 400 that does not echo the URL', async () => {
  const error = assertJsonApiError(await rawRequest(port, request('GET /status%ZZ HTTP/1.1')), 400);
  assert.equal(error.title, 'Bad Request');
  assert.doesNotMatch(error.detail, /status/);
});

test('a path parameter over the length limit is a 400 that does not echo it', async () => {
  const id = 'x'.repeat(300);
  const response = await rawRequest(port, request(`GET /shards/pc-b/matches/${id} HTTP/1.1`));
  const error = assertJsonApiError(response, 400);
  assert.ok(!response.body.includes(id.slice(0, 50)));
  assert.match(error.detail, /path segment/);
});

test('a method HTTP does not know is a 501', async () => {
  const error = assertJsonApiError(await rawRequest(port, request('BREW /status HTTP/1.1')), 501);
  assert.equal(error.title, 'Not Implemented');
});

test('a known method on a path served for others is a 405 with Allow', async () => {
  for (const method of ['DELETE', 'PUT', 'PROPFIND', 'TRACE']) {
    const response = await rawRequest(port, request(`${method} /status HTTP/1.1`));
    const error = assertJsonApiError(response, 405);
    assert.equal(error.title, 'Method Not Allowed', method);
    assert.equal(response.headers.allow, 'GET, HEAD, OPTIONS', method);
  }
  // A path that exists for no method stays a 404, quoting the path only when it is short.
  const missing = assertJsonApiError(
    await rawRequest(port, request('DELETE /no/such/thing HTTP/1.1')),
    404,
  );
  assert.match(missing.detail, /\/no\/such\/thing/);
  const long = `/${'z'.repeat(5_000)}`;
  const response = await rawRequest(port, request(`GET ${long} HTTP/1.1`));
  assertJsonApiError(response, 404);
  assert.ok(!response.body.includes('zzzzzzzzzz'), 'a long path is not echoed');
});

test('a POST to a GET route is a 405 before its body is read, malformed or not', async () => {
  for (const [type, body] of [
    ['application/json', '{"not json'],
    ['text/xml', '<a/>'],
  ] as const) {
    const response = await rawRequest(
      port,
      request(
        'POST /shards/pc-b/seasons HTTP/1.1',
        `Content-Type: ${type}`,
        `Content-Length: ${body.length}`,
      ) + body,
    );
    assertJsonApiError(response, 405);
    assert.equal(response.headers.allow, 'GET, HEAD, OPTIONS');
  }
});

test('a GET with a body is a 400, whether sized or chunked', async () => {
  const sized = await rawRequest(
    port,
    request('GET /status HTTP/1.1', 'Content-Type: application/json', 'Content-Length: 2') + '{}',
  );
  assert.match(assertJsonApiError(sized, 400).detail, /GET request carries no body/);
  const chunked = await rawRequest(
    port,
    request('GET /status HTTP/1.1', 'Transfer-Encoding: chunked') + '2\r\n{}\r\n0\r\n\r\n',
  );
  assertJsonApiError(chunked, 400);
  // An explicit empty body is no body.
  const empty = await rawRequest(port, request('GET /status HTTP/1.1', 'Content-Length: 0'));
  assert.equal(empty.status, 200);
});

test('headers over 16 KB are a 431; a request line over the limit a 414', async () => {
  const headers = await rawRequest(
    port,
    request('GET /status HTTP/1.1', `X-Padding: ${'a'.repeat(20_000)}`),
  );
  assert.equal(assertJsonApiError(headers, 431).title, 'Request Header Fields Too Large');
  const line = await rawRequest(port, request(`GET /${'a'.repeat(20_000)} HTTP/1.1`));
  assert.equal(assertJsonApiError(line, 414).title, 'URI Too Long');
});

test('requests the HTTP parser rejects get JSON:API errors', async () => {
  const cases: Array<[string, string, number]> = [
    ['header without a colon', 'GET /status HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n', 400],
    ['NUL in the path', 'GET /sta\u0000tus HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    [
      'Content-Length with Transfer-Encoding',
      'POST /status HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
    ],
    ['unknown HTTP version', 'GET /status HTTP/7.0\r\nHost: x\r\n\r\n', 505],
    ['not HTTP at all', 'hello there\r\n\r\n', 501],
  ];
  for (const [name, bytes, status] of cases) {
    const response = await rawRequest(port, bytes);
    assert.equal(response.status, status, name);
    assertJsonApiError(response, status);
    assert.equal(response.headers.connection, 'close', name);
  }
});

test("the parser's refusals are counted in the metrics by status, apart from routed requests", async () => {
  const refusals = async (status: string): Promise<number> => {
    const response = await t.app.inject({ url: '/metrics' });
    const samples = parseExposition(response.body);
    return sampleValue(samples, 'gamedata_http_parser_refusals_total', { status }) ?? 0;
  };
  const [before400, before505] = [await refusals('400'), await refusals('505')];
  await rawRequest(port, 'GET /status HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n');
  await rawRequest(port, 'GET /sta\u0000tus HTTP/1.1\r\nHost: x\r\n\r\n');
  await rawRequest(port, 'GET /status HTTP/7.0\r\nHost: x\r\n\r\n');
  assert.equal(await refusals('400'), before400 + 2);
  assert.equal(await refusals('505'), before505 + 1);
});

test('an HTTP/1.1 request without Host is a JSON:API 400; HTTP/1.0 needs none', async () => {
  const missing = await rawRequest(port, 'GET /status HTTP/1.1\r\nConnection: close\r\n\r\n');
  assert.match(assertJsonApiError(missing, 400).detail, /Host/);
  const old = await rawRequest(port, 'GET /status HTTP/1.0\r\n\r\n');
  assert.equal(old.status, 200);
});

test('an Expect other than 100-continue is a 417; CONNECT a 501', async () => {
  assertJsonApiError(await rawRequest(port, request('GET /status HTTP/1.1', 'Expect: tea')), 417);
  assertJsonApiError(
    await rawRequest(port, 'CONNECT example.org:443 HTTP/1.1\r\nHost: x\r\n\r\n'),
    501,
  );
});

test('framework errors answer in the media type the client accepts', async () => {
  const response = await rawRequest(
    port,
    request('GET /status%ZZ HTTP/1.1', 'Accept: application/json'),
  );
  assert.equal(response.status, 400);
  assert.equal(response.headers['content-type'], 'application/json');
});

test('a request arriving while the server shuts down is answered, not refused by the framework', async () => {
  const own = await createTestApp(testDatabases[0]!);
  let release!: () => void;
  let started!: () => void;
  const inFlight = new Promise<void>((resolve) => (started = resolve));
  own.app.get('/slow', async () => {
    started();
    await new Promise<void>((resolve) => (release = resolve));
    return { data: null };
  });
  const ownPort = await listenOnFreePort(own.app);
  const connection = openConnection(ownPort);
  connection.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
  await inFlight;
  const closing = own.close();
  // The connection is busy, so it stays open while the server drains; a second request on it
  // arrives after the close began.
  await new Promise((resolve) => setTimeout(resolve, 50));
  connection.write('GET /status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await new Promise((resolve) => setTimeout(resolve, 50));
  release();
  const received = await connection.closed;
  await closing;
  const second = parseRawResponse(received.slice(received.indexOf('HTTP/1.1', 10)));
  assert.equal(second.status, 200, second.body);
  assert.equal(second.headers['content-type'], 'application/vnd.api+json');
  assert.equal(JSON.parse(second.body).data.type, 'status');
});
