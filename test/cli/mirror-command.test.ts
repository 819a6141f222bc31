import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/cli.ts';

test('mirror watch, list and unwatch keep the watch list in the store', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-cli-mirror-'));
  const env = { DATA_DIR: dir, LOG_LEVEL: 'silent' };
  try {
    const watched = await runCli(env, 'mirror', 'watch', 'pc-b', 'Alice', 'Bob');
    assert.deepEqual(watched.out, ['2 added to the watch list (0 were on it)']);
    const again = await runCli(env, 'mirror', 'watch', 'pc-b', 'Alice');
    assert.deepEqual(again.out, ['0 added to the watch list (1 were on it)']);
    const listed = await runCli(env, 'mirror', 'list');
    assert.deepEqual(
      listed.out.map((line) => line.split('\t').slice(0, 3)),
      [
        ['pc-b', 'Alice', '-'],
        ['pc-b', 'Bob', '-'],
      ],
    );
    const removed = await runCli(env, 'mirror', 'unwatch', 'pc-b', 'Bob', 'Carol');
    assert.deepEqual(removed.out, ['1 removed from the watch list']);
    assert.equal((await runCli(env, 'mirror', 'list')).out.length, 1);

    const crawl = await runCli(env, 'mirror', '--once');
    assert.equal(crawl.exitCode, 1);
    assert.match(crawl.err.join('\n'), /UPSTREAM_URL is not set/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
