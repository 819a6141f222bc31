import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import http from 'node:http';
import Fastify from 'fastify';
import { drainableServer } from '../../src/http/drain-server.ts';
import { takeConnections } from '../../src/http/raw-connections.ts';
import { readGet } from '../../src/http/raw-get.ts';

/** A raw HTTP/1.1 client on one keep-alive socket: what it received, and when the server closed it. */
function rawClient(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8').on('data', (text: string) => (received += text));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  return { socket, received: () => received, closed };
}

async function listeningApp() {
  const app = Fastify({ return503OnClosing: false });
  let entered!: () => void;
  const inHandler = new Promise<void>((resolve) => (entered = resolve));
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  app.get('/slow', async () => {
    entered();
    await finished;
    return { ok: true };
  });
  app.get('/fast', async () => ({ ok: true }));
  const drain = drainableServer(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as net.AddressInfo;
  return { app, drain, port, inHandler, finish };
}

test('draining answers an in-flight keep-alive request with Connection: close, then closes', async () => {
  const { drain, port, inHandler, finish } = await listeningApp();
  const busy = rawClient(port);
  busy.socket.write('GET /slow HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n');
  const idle = rawClient(port);
  idle.socket.write('GET /fast HTTP/1.1\r\nHost: test\r\n\r\n');
  await inHandler;
  while (!idle.received().includes('{"ok":true}')) await new Promise((r) => setTimeout(r, 10));
  assert.match(idle.received(), /connection: keep-alive/i, 'before the drain, keep-alive');

  const closing = drain.close(10_000);
  await idle.closed;
  assert.equal(busy.socket.destroyed, false, 'the idle socket is closed, the busy one is not');
  finish();
  const { destroyed } = await closing;
  await busy.closed;
  assert.match(busy.received(), /^HTTP\/1\.1 200 OK/);
  assert.match(busy.received(), /\r\nconnection: close\r\n/i);
  assert.match(busy.received(), /\{"ok":true\}$/);
  assert.equal(destroyed, 0, 'nothing had to be cut');
});

test('draining cuts what is still open at the deadline, and a request that never ends cannot hold it', async () => {
  const { drain, port, inHandler } = await listeningApp();
  const stuck = rawClient(port);
  stuck.socket.write('GET /slow HTTP/1.1\r\nHost: test\r\n\r\n');
  const slowSender = rawClient(port);
  slowSender.socket.write('GET /fast HTTP/1.1\r\nHost: te');
  await inHandler;
  const started = performance.now();
  const { destroyed } = await drain.close(300);
  const elapsed = performance.now() - started;
  await Promise.all([stuck.closed, slowSender.closed]);
  assert.equal(destroyed, 2);
  assert.ok(elapsed >= 250 && elapsed < 5_000, `closed after ${Math.round(elapsed)} ms`);
});

test('draining cuts a slow reader of an answer written on the connection by the fast path', async () => {
  // A server whose connections the fast path reads first (as src/http/fast-path.ts makes it),
  // answering GET /big with 16 MB on the connection itself.
  let connections!: ReturnType<typeof takeConnections>;
  const app = Fastify({
    return503OnClosing: false,
    serverFactory(handler) {
      const server = http.createServer(handler);
      connections = takeConnections(server, 5_000);
      connections.enable((chunk, at, socket) => {
        const request = readGet(chunk, at);
        if (request === null || request.url !== '/big') return -1;
        const size = 16 * 1024 * 1024;
        socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${size}\r\n\r\n`);
        socket.write(Buffer.alloc(size));
        return request.end;
      });
      return server;
    },
  });
  app.addHook('preClose', async () => connections.disable());
  const drain = drainableServer(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as net.AddressInfo;
  const reader = rawClient(port);
  reader.socket.pause();
  reader.socket.write('GET /big HTTP/1.1\r\nHost: test\r\n\r\n');
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = performance.now();
  const { destroyed } = await drain.close(300);
  const elapsed = performance.now() - started;
  // Reading again, the client finds the connection cut.
  reader.socket.resume();
  await reader.closed;
  assert.equal(destroyed, 1);
  assert.ok(elapsed >= 250 && elapsed < 5_000, `closed after ${Math.round(elapsed)} ms`);
});
