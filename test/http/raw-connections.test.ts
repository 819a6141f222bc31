/**
 * Connections answered on the socket until handed to Node (src/http/raw-connections.ts), on a
 * plain Node HTTP server: requests the answerer takes are answered in order with the ones Node
 * answers after the hand-over (pipelined, split across writes, past the pipeline limit), a slow
 * reader gets every byte, idle connections close or go to Node as Node's would, and once
 * disabled connections close after their last answer, so that the server closes.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import {
  MAX_PIPELINED,
  takeConnections,
  type AnswerAt,
  type RawConnections,
} from '../../src/http/raw-connections.ts';
import { readGet } from '../../src/http/raw-get.ts';

interface Harness {
  port: number;
  server: http.Server;
  connections: RawConnections;
  /** Requests Node's request handler answered. */
  viaNode: string[];
}

let open: Harness | null = null;

afterEach(async () => {
  if (open === null) return;
  open.connections.disable();
  open.server.closeAllConnections();
  await new Promise((resolve) => open!.server.close(resolve));
  open = null;
});

/**
 * Answers `GET /raw/<n>` with a body of n bytes of `r`, and `GET /later/<n>` so 20 ms later (as
 * an answer waiting for a count in Redis); `GET /later-not/…` is given up 20 ms later, and
 * everything else at once: Node answers those (`node <url>`).
 */
const answerRaw: AnswerAt = (chunk, at, socket) => {
  const request = readGet(chunk, at);
  if (request === null) return -1;
  const [, kind, size] = request.url.split('/');
  const write = (): number => {
    socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${size}\r\nx-by: ${kind}\r\n\r\n`);
    socket.write(Buffer.alloc(Number(size), 'r'));
    return request.end;
  };
  const later = (answer: () => number) =>
    new Promise<number>((resolve) => setTimeout(() => resolve(answer()), 20));
  if (kind === 'raw') return write();
  if (kind === 'later') return later(write);
  if (kind === 'later-not') return later(() => -1);
  if (kind === 'throw') throw new Error('a fault before anything is written');
  if (kind === 'throw-midway') {
    socket.write('HTTP/1.1 200 OK\r\n');
    throw new Error('a fault after part of the answer is written');
  }
  return -1;
};

async function start(keepAliveMs = 5_000, answerAt: AnswerAt = answerRaw): Promise<Harness> {
  const viaNode: string[] = [];
  const server = http.createServer((req, res) => {
    viaNode.push(req.url!);
    const body = `node ${req.url}`;
    res.writeHead(200, { 'content-length': Buffer.byteLength(body), 'x-by': 'node' });
    res.end(body);
  });
  server.keepAliveTimeout = keepAliveMs;
  const connections = takeConnections(server, keepAliveMs);
  connections.enable(answerAt);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  open = { port: (server.address() as net.AddressInfo).port, server, connections, viaNode };
  return open;
}

/** A client connection that collects what it receives and parses responses by Content-Length. */
function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = Buffer.alloc(0);
  const waiters: Array<() => void> = [];
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    for (const wake of waiters.splice(0)) wake();
  });
  socket.on('error', () => undefined);
  const closed = once(socket, 'close');

  function responses(): Array<{ by: string; body: string }> {
    const parsed: Array<{ by: string; body: string }> = [];
    let at = 0;
    for (;;) {
      const headEnd = received.indexOf('\r\n\r\n', at);
      if (headEnd < 0) break;
      const head = received.toString('latin1', at, headEnd);
      const length = Number(/content-length: (\d+)/i.exec(head)![1]);
      if (headEnd + 4 + length > received.length) break;
      parsed.push({
        by: /x-by: (\w+)/i.exec(head)![1]!,
        body: received.toString('latin1', headEnd + 4, headEnd + 4 + length),
      });
      at = headEnd + 4 + length;
    }
    return parsed;
  }

  return {
    socket,
    closed,
    write: (text: string) => socket.write(text, 'latin1'),
    /** Resolves with the first `count` complete responses once they have all arrived. */
    async responses(count: number) {
      while (responses().length < count) await new Promise<void>((wake) => waiters.push(wake));
      return responses().slice(0, count);
    },
  };
}

const GET = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`;

// A connection that is never answered or closed would otherwise hold the test, and the suite, open.
describe('connections answered on the socket', { timeout: 60_000 }, () => {
  test('answers what it takes, hands the rest to Node, in order, on one connection', async () => {
    const { port, viaNode } = await start();
    const client = connect(port);
    client.write(GET('/raw/3') + GET('/raw/5') + GET('/other') + GET('/raw/2'));
    const answers = await client.responses(4);
    assert.deepEqual(answers, [
      { by: 'raw', body: 'rrr' },
      { by: 'raw', body: 'rrrrr' },
      { by: 'node', body: 'node /other' },
      // Once handed over, the connection is Node's for good.
      { by: 'node', body: 'node /raw/2' },
    ]);
    assert.deepEqual(viaNode, ['/other', '/raw/2']);
    client.socket.destroy();
  });

  test('answers that wait keep their order; one given up later goes to Node with the rest', async () => {
    const { port, viaNode } = await start();
    const client = connect(port);
    client.write(GET('/raw/1') + GET('/later/2') + GET('/raw/3') + GET('/later/4'));
    assert.deepEqual(await client.responses(4), [
      { by: 'raw', body: 'r' },
      { by: 'later', body: 'rr' },
      { by: 'raw', body: 'rrr' },
      { by: 'later', body: 'rrrr' },
    ]);
    // Still kept: the next chunk is read here too.
    client.write(GET('/later/5') + GET('/later-not/6') + GET('/raw/7'));
    const answers = await client.responses(7);
    assert.deepEqual(answers.slice(4), [
      { by: 'later', body: 'rrrrr' },
      { by: 'node', body: 'node /later-not/6' },
      { by: 'node', body: 'node /raw/7' },
    ]);
    assert.deepEqual(viaNode, ['/later-not/6', '/raw/7']);
    client.socket.destroy();
  });

  test('closing while an answer waits: it is written, then the connection closes', async () => {
    const harness = await start();
    const client = connect(harness.port);
    client.write(GET('/raw/1') + GET('/later/2') + GET('/raw/3'));
    await client.responses(1);
    harness.connections.disable();
    const closed = new Promise((resolve) => harness.server.close(resolve));
    // The waiting answer is written; the one after it is Node's, as the app is closing.
    assert.deepEqual(await client.responses(3), [
      { by: 'raw', body: 'r' },
      { by: 'later', body: 'rr' },
      { by: 'node', body: 'node /raw/3' },
    ]);
    client.socket.destroy();
    await closed;
    open = null;
  });

  test('an answer that throws goes to Node if nothing was written, else cuts the connection', async () => {
    const { port, viaNode } = await start();
    const client = connect(port);
    client.write(GET('/raw/1') + GET('/throw/2'));
    assert.deepEqual(await client.responses(2), [
      { by: 'raw', body: 'r' },
      { by: 'node', body: 'node /throw/2' },
    ]);
    const cut = connect(port);
    cut.write(GET('/raw/1') + GET('/throw-midway/2'));
    await cut.closed;
    assert.deepEqual(viaNode, ['/throw/2']);
    client.socket.destroy();
  });

  test('answers requests written one by one while it keeps the connection', async () => {
    const { port, viaNode } = await start();
    const client = connect(port);
    for (let i = 1; i <= 3; i++) {
      client.write(GET(`/raw/${i}`));
      const answers = await client.responses(i);
      assert.equal(answers[i - 1]!.body, 'r'.repeat(i));
    }
    assert.deepEqual(viaNode, []);
    client.socket.destroy();
  });

  test('a request split across writes goes to Node whole, with what came before it answered', async () => {
    const { port, viaNode } = await start();
    const client = connect(port);
    const split = GET('/raw/4');
    client.write(GET('/raw/1') + split.slice(0, 12));
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.write(split.slice(12));
    const answers = await client.responses(2);
    assert.deepEqual(answers, [
      { by: 'raw', body: 'r' },
      { by: 'node', body: 'node /raw/4' },
    ]);
    assert.deepEqual(viaNode, ['/raw/4']);
    client.socket.destroy();
  });

  test(`answers at most ${MAX_PIPELINED} requests of one chunk; Node answers the rest`, async () => {
    const { port, viaNode } = await start();
    const client = connect(port);
    const count = MAX_PIPELINED + 5;
    client.write(Array.from({ length: count }, (_, i) => GET(`/raw/${i + 1}`)).join(''));
    const answers = await client.responses(count);
    answers.forEach((answer, i) => {
      assert.equal(answer.by, i < MAX_PIPELINED ? 'raw' : 'node');
      if (i < MAX_PIPELINED) assert.equal(answer.body, 'r'.repeat(i + 1));
    });
    assert.equal(viaNode.length, 5);
    client.socket.destroy();
  });

  test('a client that reads slowly gets every byte of every answer', async () => {
    const { port } = await start();
    const client = connect(port);
    client.socket.pause();
    const size = 1024 * 1024;
    client.write(Array.from({ length: 8 }, () => GET(`/raw/${size}`)).join(''));
    await new Promise((resolve) => setTimeout(resolve, 200));
    client.socket.resume();
    const answers = await client.responses(8);
    for (const answer of answers) {
      assert.equal(answer.by, 'raw');
      assert.equal(answer.body.length, size);
    }
    // Still answering on the connection after the pause.
    client.write(GET('/raw/7'));
    assert.deepEqual((await client.responses(9))[8], { by: 'raw', body: 'rrrrrrr' });
    client.socket.destroy();
  });

  test('an idle connection is closed after the keep-alive timeout that follows an answer', async () => {
    const { port } = await start(150);
    const client = connect(port);
    client.write(GET('/raw/1'));
    await client.responses(1);
    const started = Date.now();
    await client.closed;
    assert.ok(Date.now() - started >= 100, 'closed before the keep-alive timeout');
  });

  test('a client that half-closes gets its answers, then the end of the connection', async () => {
    const { port } = await start();
    const client = connect(port);
    client.write(GET('/raw/2') + GET('/later/3'));
    client.socket.end();
    // Closed long before the keep-alive timeout (5 s here).
    const started = Date.now();
    await client.closed;
    assert.ok(Date.now() - started < 2_000, 'closed at once');
    assert.deepEqual(await client.responses(2), [
      { by: 'raw', body: 'rr' },
      { by: 'later', body: 'rrr' },
    ]);
  });

  test('a connection silent from the start goes to Node, which answers it when it speaks', async () => {
    const { port, viaNode } = await start(100);
    const client = connect(port);
    await new Promise((resolve) => setTimeout(resolve, 300));
    client.write(GET('/raw/2'));
    assert.deepEqual(await client.responses(1), [{ by: 'node', body: 'node /raw/2' }]);
    assert.deepEqual(viaNode, ['/raw/2']);
    client.socket.destroy();
  });

  test('once disabled, connections close once their answers are sent, as idle ones of Node’s', async () => {
    const harness = await start();
    const idle = connect(harness.port);
    idle.write(GET('/raw/1'));
    await idle.responses(1);
    // A slow reader with most of a large answer still queued when the server closes.
    const slow = connect(harness.port);
    slow.socket.pause();
    const size = 4 * 1024 * 1024;
    slow.write(GET(`/raw/${size}`));
    await new Promise((resolve) => setTimeout(resolve, 100));

    // What Fastify's close does: stop answering here (preClose), then close the server.
    harness.connections.disable();
    const closed = new Promise((resolve) => harness.server.close(resolve));
    await idle.closed;
    slow.socket.resume();
    const [answer] = await slow.responses(1);
    assert.equal(answer!.body.length, size);
    await slow.closed;
    await closed;
    open = null;
  });

  test('once disabled, new connections are Node’s from the first request', async () => {
    const harness = await start();
    harness.connections.disable();
    const client = connect(harness.port);
    client.write(GET('/raw/3'));
    assert.deepEqual(await client.responses(1), [{ by: 'node', body: 'node /raw/3' }]);
    client.socket.destroy();
  });
});
