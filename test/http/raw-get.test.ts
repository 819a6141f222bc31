/**
 * Reading plain GETs from a connection's bytes (src/http/raw-get.ts): what it reads, it reads as
 * Node's parser does (target, trimmed values, names in any case, where the request ends); every
 * request outside its strict subset is given up (null), so that Node's parser answers it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_HEAD, MAX_HEADERS, readGet } from '../../src/http/raw-get.ts';

const bytes = (text: string): Buffer => Buffer.from(text, 'latin1');
const get = (headers: string, target = '/status'): Buffer =>
  bytes(`GET ${target} HTTP/1.1\r\n${headers}\r\n`);

describe('reading a plain GET from bytes', () => {
  test('reads the target and the headers an answer depends on, values trimmed, names in any case', () => {
    const request = get(
      'Host: example.org\r\nACCEPT:   application/json \t\r\naccept-Encoding: gzip, br\r\n' +
        'Authorization: Bearer gd_abc\r\nX-Other: anything at all\r\nConnection: Keep-Alive\r\n',
      '/shards/pc-b/players?filter[playerNames]=a,b',
    );
    const read = readGet(request, 0);
    assert.deepEqual(read, {
      url: '/shards/pc-b/players?filter[playerNames]=a,b',
      accept: 'application/json',
      acceptEncoding: 'gzip, br',
      authorization: 'Bearer gd_abc',
      end: request.length,
    });
  });

  test('headers not given are undefined; an empty value is an empty string', () => {
    const read = readGet(get('Host: h\r\nAccept-Encoding:\r\n'), 0);
    assert.equal(read?.accept, undefined);
    assert.equal(read?.authorization, undefined);
    assert.equal(read?.acceptEncoding, '');
  });

  test('reads pipelined requests one after the other, from where the last ended', () => {
    const first = get('Host: h\r\n', '/status');
    const second = get('Host: h\r\nAccept: application/json\r\n', '/healthz');
    const both = Buffer.concat([first, second]);
    const one = readGet(both, 0);
    assert.equal(one?.url, '/status');
    assert.equal(one?.end, first.length);
    const two = readGet(both, one!.end);
    assert.equal(two?.url, '/healthz');
    assert.equal(two?.accept, 'application/json');
    assert.equal(two?.end, both.length);
  });

  const refused: Array<[string, Buffer]> = [
    ['another method', bytes('HEAD /status HTTP/1.1\r\nHost: h\r\n\r\n')],
    ['a lower-case method', bytes('get /status HTTP/1.1\r\nHost: h\r\n\r\n')],
    ['HTTP/1.0', bytes('GET /status HTTP/1.0\r\nHost: h\r\n\r\n')],
    ['an absolute target', bytes('GET http://h/status HTTP/1.1\r\nHost: h\r\n\r\n')],
    ['an asterisk target', bytes('GET * HTTP/1.1\r\nHost: h\r\n\r\n')],
    ['a target beyond ASCII', bytes('GET /st\xe4tus HTTP/1.1\r\nHost: h\r\n\r\n')],
    ['two spaces after the target', bytes('GET /status  HTTP/1.1\r\nHost: h\r\n\r\n')],
    ['no Host', get('Accept: application/json\r\n')],
    ['an empty Host', get('Host:\r\n')],
    ['two Hosts', get('Host: a\r\nHost: b\r\n')],
    ['two Accepts', get('Host: h\r\nAccept: a/b\r\naccept: c/d\r\n')],
    ['two Accept-Encodings', get('Host: h\r\nAccept-Encoding: gzip\r\nAccept-Encoding: br\r\n')],
    ['two Authorizations', get('Host: h\r\nAuthorization: a\r\nAuthorization: b\r\n')],
    ['a Content-Length', get('Host: h\r\nContent-Length: 0\r\n')],
    ['a Transfer-Encoding', get('Host: h\r\nTransfer-Encoding: chunked\r\n')],
    ['an Expect', get('Host: h\r\nExpect: 100-continue\r\n')],
    ['an Upgrade', get('Host: h\r\nUpgrade: websocket\r\n')],
    ['If-None-Match', get('Host: h\r\nIf-None-Match: "x"\r\n')],
    ['Connection: close', get('Host: h\r\nConnection: close\r\n')],
    ['Connection: keep-alive, Upgrade', get('Host: h\r\nConnection: keep-alive, Upgrade\r\n')],
    ['a value beyond ASCII', get('Host: h\r\nX-Name: caf\xe9\r\n')],
    ['a control byte in a value', get('Host: h\r\nX-Name: a\x01b\r\n')],
    ['a bare LF ending a line', bytes('GET /status HTTP/1.1\r\nHost: h\nAccept: a/b\r\n\r\n')],
    ['a bare LF ending the head', bytes('GET /status HTTP/1.1\r\nHost: h\r\n\n')],
    ['a folded line', get('Host: h\r\nX-Long: a\r\n b\r\n')],
    ['a space before the colon', get('Host: h\r\nAccept : a/b\r\n')],
    ['a name that is not a token', get('Host: h\r\nX(y): z\r\n')],
    ['an empty name', get('Host: h\r\n: z\r\n')],
    ['a line without a colon', get('Host: h\r\nnonsense\r\n')],
    ['a request cut short', bytes('GET /status HTTP/1.1\r\nHost: h\r\nAccept: appl')],
    ['a head without its blank line', bytes('GET /status HTTP/1.1\r\nHost: h\r\n')],
    ['a head ending in CR alone', bytes('GET /status HTTP/1.1\r\nHost: h\r\n\r')],
    ['more header lines than read here', get('Host: h\r\n' + 'X-A: b\r\n'.repeat(MAX_HEADERS))],
    ['a head longer than read here', get(`Host: h\r\nX-A: ${'b'.repeat(MAX_HEAD)}\r\n`)],
  ];
  for (const [what, request] of refused) {
    test(`gives up on ${what}`, () => assert.equal(readGet(request, 0), null));
  }

  test('reads as many header lines and bytes as its limits allow', () => {
    const lines = get('Host: h\r\n' + 'X-A: b\r\n'.repeat(MAX_HEADERS - 1));
    assert.notEqual(readGet(lines, 0), null);
    const head = get('Host: h\r\nX-A: \r\n');
    const long = get(`Host: h\r\nX-A: ${'b'.repeat(MAX_HEAD - head.length)}\r\n`);
    assert.equal(long.length, MAX_HEAD);
    assert.notEqual(readGet(long, 0), null);
  });
});
