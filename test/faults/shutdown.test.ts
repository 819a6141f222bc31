/**
 * SIGTERM and SIGINT against the real server process: slow clients cannot hold it past the
 * grace period, keep-alive clients are told `Connection: close`, idle ones are not waited for,
 * a second signal exits at once, and `npm start` hands the signal to the server.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/runtime.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import {
  ROOT,
  freePort,
  jsonLines,
  portIsFree,
  runGamedata,
  track,
  waitUntilServing,
  type ChildRun,
} from '../helpers/server-process.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-shutdown-'));
let matchId = '';

before(async () => {
  // One match whose telemetry decompresses to ~24 MB: more than the sockets between a server
  // and a client that stops reading can buffer, so its download cannot finish on its own.
  const match = makeMatchInput({
    seed: 'shutdown',
    overrides: { createdAt: new Date(Date.now() - 3_600_000).toISOString() },
  });
  const start = Date.now() - 3_600_000;
  match.telemetry = Array.from({ length: 40_000 }, (_, i) => ({
    _T: 'LogPlayerPosition',
    _D: new Date(start + i * 10).toISOString(),
    padding: `${i}:${'x'.repeat(560)}`,
  }));
  const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir }));
  try {
    matchId = (await ingestMatch(runtime, match)).matchId;
  } finally {
    await runtime.close();
  }
});

after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function startServer(env: Record<string, string> = {}, args = ['serve']) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const run = runGamedata(args, {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: base,
    DEMO_DATA: 'off',
    JOBS: 'off',
    ...env,
  });
  await waitUntilServing(run, `${base}/healthz`);
  return { run, port, base };
}

/** Resolves once the server logged that it is stopping (the signal was handled). */
async function stopping(run: ChildRun): Promise<void> {
  while (!run.stdout().includes('"msg":"stopping')) {
    if (run.child.exitCode !== null) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A raw socket client: what it received and when the server closed it. */
function rawClient(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8').on('data', (text: string) => (received += text));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, connected, closed, received: () => received };
}

test('SIGTERM with a slow reader and a slow sender: exit 0 when the grace period ends, port released', async () => {
  const { run, port, base } = await startServer({ SHUTDOWN_GRACE_SECONDS: '2' });
  try {
    const document = (await (await fetch(`${base}/shards/pc-b/matches/${matchId}`)).json()) as {
      included: Array<{ type: string; attributes: { URL?: string } }>;
    };
    const url = document.included.find((item) => item.type === 'asset')!.attributes.URL!;
    // Asks for the decompressed file, then reads nothing.
    const reader = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(url, { headers: { 'accept-encoding': 'identity' } }, resolve).on('error', reject),
    );
    assert.equal(reader.statusCode, 200);
    reader.pause();
    reader.on('error', () => {});
    const sender = rawClient(port);
    await sender.connected;
    sender.socket.write('GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */');

    const signalled = performance.now();
    run.child.kill('SIGTERM');
    const exit = await run.exited;
    const elapsed = exit.at - signalled;
    assert.equal(exit.code, 0, run.stderr());
    assert.ok(elapsed >= 1_500, `the in-flight download had its grace period (${elapsed} ms)`);
    assert.ok(elapsed < 2_000 + 4_000, `exited ${Math.round(elapsed)} ms after SIGTERM`);
    assert.ok(await portIsFree(port), 'the port is free');
    const stopped = jsonLines(run.stdout()).find((line) => line.msg === 'stopped');
    assert.ok(stopped, 'a last log line says it stopped');
    assert.ok(Number(stopped.connectionsCut) >= 2, JSON.stringify(stopped));
    reader.destroy();
  } finally {
    run.child.kill('SIGKILL');
  }
});

test('SIGTERM: a keep-alive request under way is answered with Connection: close, idle keep-alive sockets are closed at once', async () => {
  const { run, port } = await startServer({ SHUTDOWN_GRACE_SECONDS: '30' });
  try {
    const idle = rawClient(port);
    idle.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    while (!idle.received().includes('\r\n\r\n')) await new Promise((r) => setTimeout(r, 10));
    assert.match(idle.received(), /connection: keep-alive/i);
    const busy = rawClient(port);
    await busy.connected;
    busy.socket.write(`GET /shards/pc-b/matches/${matchId} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);

    const signalled = performance.now();
    run.child.kill('SIGTERM');
    await stopping(run);
    await idle.closed;
    busy.socket.write('Accept-Encoding: gzip\r\n\r\n');
    await busy.closed;
    assert.match(busy.received(), /^HTTP\/1\.1 200 OK/);
    assert.match(busy.received(), /\r\nconnection: close\r\n/i);

    const exit = await run.exited;
    assert.equal(exit.code, 0, run.stderr());
    assert.ok(
      exit.at - signalled < 10_000,
      'nothing waited for the 30-second grace period: idle sockets were closed',
    );
    assert.ok(await portIsFree(port));
  } finally {
    run.child.kill('SIGKILL');
  }
});

test('`gamedata` alone serves; a second signal exits at once', async () => {
  const { run, port } = await startServer({ SHUTDOWN_GRACE_SECONDS: '60' }, []);
  try {
    const sender = rawClient(port);
    await sender.connected;
    sender.socket.write('GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    run.child.kill('SIGTERM');
    await stopping(run);
    const signalled = performance.now();
    run.child.kill('SIGINT');
    const exit = await run.exited;
    assert.equal(exit.code, 130);
    assert.ok(exit.at - signalled < 5_000);
    assert.match(run.stderr(), /SIGINT again: exiting at once/);
  } finally {
    run.child.kill('SIGKILL');
  }
});

/**
 * A project directory whose `start` script is this package's, and whose `dist/main.js` loads the
 * sources through tsx: `npm start` then runs exactly the real script and server, with no build.
 */
function startScriptProject(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-npm-start-'));
  const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'start-script-check',
      private: true,
      type: 'module',
      scripts: { start: scripts.start },
    }),
  );
  fs.mkdirSync(path.join(dir, 'dist'));
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const main = JSON.stringify(pathToFileURL(path.join(ROOT, 'src/main.ts')).href);
  fs.writeFileSync(
    path.join(dir, 'dist/main.js'),
    `const { register } = await import(${tsx});\nregister();\nawait import(${main});\n`,
  );
  return dir;
}

test('SIGTERM to `npm start` reaches the server: it exits and frees the port', async () => {
  const project = startScriptProject();
  const port = await freePort();
  const npm = track(
    spawn('npm', ['start'], {
      cwd: project,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        DEMO_DATA: 'off',
        JOBS: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  try {
    await waitUntilServing(npm, `http://127.0.0.1:${port}/healthz`);
    npm.child.kill('SIGTERM');
    const exit = await npm.exited;
    assert.equal(exit.code, 0, npm.stderr());
    assert.match(npm.stdout(), /"msg":"stopped"/, 'the server itself stopped in order');
    assert.ok(await portIsFree(port), 'no orphaned server holds the port');
  } finally {
    npm.child.kill('SIGKILL');
    fs.rmSync(project, { recursive: true, force: true });
  }
});
