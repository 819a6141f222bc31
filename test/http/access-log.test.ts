/**
 * The logs of a real `serve` process: stdout is JSON lines only, one access line per request
 * with the route template and the key's id, and neither an API key nor an Authorization header
 * value appears anywhere in what the process writes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/runtime.ts';
import { createApiKey } from '../../src/store/api-keys.ts';
import { freePort, jsonLines, runGamedata, waitUntilServing } from '../helpers/server-process.ts';

async function serveWithKey(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-logs-'));
  const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir }));
  const { key, record } = await createApiKey(runtime.store.db, {
    name: 'logged',
    ratePerMinute: 1000,
    now: Date.now(),
  });
  await runtime.close();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const run = runGamedata(['serve'], {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: base,
    DEMO_DATA: 'off',
    JOBS: 'off',
    ...env,
  });
  await waitUntilServing(run, `${base}/healthz`);
  return {
    run,
    base,
    key,
    keyId: record.id,
    async stop() {
      run.child.kill('SIGTERM');
      await run.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

test('stdout is JSON lines with one access line per request; keys and Authorization values never appear', async () => {
  const server = await serveWithKey({});
  try {
    const unknownKey = 'gd_not-a-real-key-but-secret-all-the-same-0123';
    const secretName = 'SecretPlayerName42';
    const answers = [
      await fetch(`${server.base}/shards/pc-b/seasons`, {
        headers: { authorization: `Bearer ${server.key}` },
      }),
      await fetch(`${server.base}/shards/pc-b/players?filter[playerNames]=${secretName}`, {
        headers: { authorization: `Bearer ${server.key}` },
      }),
      await fetch(`${server.base}/shards/pc-b/seasons`, {
        headers: { authorization: `Bearer ${unknownKey}` },
      }),
      await fetch(`${server.base}/status`, { headers: { authorization: `Bearer ${server.key}` } }),
      await fetch(`${server.base}/no/such/route`, {
        headers: { authorization: `Basic ${Buffer.from('user:hunter2').toString('base64')}` },
      }),
    ];
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 404, 401, 200, 404],
    );
  } finally {
    await server.stop();
  }
  const stdout = server.run.stdout();
  const everything = stdout + server.run.stderr();
  for (const secret of [
    server.key,
    'gd_not-a-real-key-but-secret-all-the-same-0123',
    Buffer.from('user:hunter2').toString('base64'),
    'SecretPlayerName42',
    'Bearer',
  ]) {
    assert.ok(!everything.includes(secret), `${secret} was written by the process`);
  }

  const lines = jsonLines(stdout);
  const access = lines.filter((line) => line.msg === 'request');
  // A line is written once its response has finished, which may come after the client has
  // already sent the next request: compare the last five as a set (the start-up probes of
  // /healthz aside).
  const byText = (a: unknown[], b: unknown[]): number =>
    JSON.stringify(a).localeCompare(JSON.stringify(b));
  const seen = access
    .filter((line) => line.route !== '/healthz')
    .map((line) => [line.method, line.route, line.status, line.keyId]);
  assert.deepEqual(
    seen.slice(-5).sort(byText),
    [
      ['GET', '/shards/:shard/seasons', 200, server.keyId],
      ['GET', '/shards/:shard/players', 404, server.keyId],
      ['GET', '/shards/:shard/seasons', 401, null],
      ['GET', '/status', 200, null],
      ['GET', null, 404, null],
    ].sort(byText),
  );
  for (const line of access) {
    assert.equal(typeof line.ms, 'number');
    assert.match(String(line.reqId), /\S/);
  }
  assert.equal(new Set(access.map((line) => line.reqId)).size, access.length, 'ids are distinct');
  assert.ok(lines.some((line) => line.msg === 'stopped'));
});

test('ACCESS_LOG=off writes no access lines', async () => {
  const server = await serveWithKey({ ACCESS_LOG: 'off' });
  try {
    assert.equal((await fetch(`${server.base}/status`)).status, 200);
  } finally {
    await server.stop();
  }
  const lines = jsonLines(server.run.stdout());
  assert.ok(lines.length > 0);
  assert.ok(!lines.some((line) => line.msg === 'request'));
});

test('access lines are buffered, and every one is written when SIGTERM stops the server', async () => {
  // A flush interval longer than the test: what reaches stdout before the stop was written
  // because the buffer filled, and the rest only by the orderly stop.
  const server = await serveWithKey({ LOG_FLUSH_MS: '600000' });
  // Well past one 32 KB buffer (about 165 bytes a line): lines reach the buffer a batch per
  // event-loop turn, so the write that fills it may take a whole batch with it.
  const requests = 300;
  const statusLines = () =>
    jsonLines(server.run.stdout()).filter(
      (line) => line.msg === 'request' && line.route === '/status',
    ).length;
  let beforeStop: number;
  try {
    const answers = await Promise.all(
      Array.from({ length: requests }, () => fetch(`${server.base}/status`)),
    );
    assert.ok(answers.every((answer) => answer.status === 200));
    await Promise.all(answers.map((answer) => answer.arrayBuffer()));
    await new Promise((resolve) => setTimeout(resolve, 300));
    beforeStop = statusLines();
  } finally {
    await server.stop();
  }
  assert.ok(beforeStop < requests, `${beforeStop} of ${requests} lines written before the stop`);
  assert.equal(statusLines(), requests);
  const lines = jsonLines(server.run.stdout());
  assert.equal(lines.at(-1)?.msg, 'stopped', 'the stop is the last line');
});
