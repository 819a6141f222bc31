/**
 * Starting while the database cannot be reached: the store retries with a line per attempt and,
 * when the configured time has passed, the process exits 1 with one line — no stack trace. A
 * closed port on 127.0.0.1 stands for the database, so no PostgreSQL server is needed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from '../../src/store/store.ts';
import { StoreUnavailableError, isStoreUnavailable } from '../../src/store/store-errors.ts';
import { freePort, startServer } from './fault-helpers.ts';

test('opening an unreachable store retries for the time given, then fails in one line', async () => {
  const port = await freePort();
  const lines: string[] = [];
  const started = performance.now();
  await assert.rejects(
    openStore(`postgres://postgres:secret@127.0.0.1:${port}/gamedata`, {
      startupTimeoutMs: 2_000,
      log: { warn: (line) => lines.push(line), info: (line) => lines.push(line) },
    }),
    (error: unknown) => {
      assert.ok(error instanceof StoreUnavailableError);
      assert.ok(isStoreUnavailable(error));
      assert.equal(
        error.message,
        `The database 127.0.0.1:${port}/gamedata could not be reached within 2 s: connect ECONNREFUSED 127.0.0.1:${port}`,
      );
      return true;
    },
  );
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 2_000 && elapsed < 6_000, `gave up after ${elapsed} ms`);
  assert.ok(lines.length >= 2, lines.join('\n'));
  assert.match(
    lines[0]!,
    /^Database 127\.0\.0\.1:\d+\/gamedata not reachable \(attempt 1\): connect ECONNREFUSED .*; retrying in 0\.5 s, giving up 2 s from now$/,
  );
  assert.ok(
    lines.every((line) => !line.includes('secret')),
    'no password in the log',
  );
});

test('without a start-up timeout one failed attempt is enough', async () => {
  const port = await freePort();
  await assert.rejects(
    openStore(`postgres://postgres@127.0.0.1:${port}/gamedata`),
    /could not be reached: connect ECONNREFUSED/,
  );
});

test(
  'serve exits 1 with a one-line message once DATABASE_STARTUP_TIMEOUT_SECONDS has passed',
  { timeout: 60_000 },
  async () => {
    const port = await freePort();
    const server = await startServer({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/gamedata`,
      DATABASE_STARTUP_TIMEOUT_SECONDS: '2',
    });
    try {
      assert.equal(await server.exited, 1);
      // Each attempt is a JSON log line on stdout; the final word is one plain line on stderr.
      const attempts = server
        .stdout()
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { msg: string }).msg)
        .filter((msg) => msg.includes('not reachable'));
      assert.ok(attempts.length >= 2, server.stdout());
      assert.match(
        server.stderr().trim(),
        /^gamedata: The database 127\.0\.0\.1:\d+\/gamedata could not be reached within 2 s: connect ECONNREFUSED[^\n]*$/,
      );
      assert.doesNotMatch(server.stderr(), /^\s+at /m, 'no stack trace');
    } finally {
      await server.stop();
    }
  },
);
