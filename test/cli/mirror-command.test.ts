import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildProgram } from '../../src/cli/program.ts';

/** Runs one `gamedata …` command in-process against a data directory; returns what it printed. */
async function gamedata(env: Record<string, string>, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const program = buildProgram(
    { env, out: (line) => out.push(line), err: (line) => err.push(line), interactive: false },
    async () => {
      throw new Error('serve is not under test here');
    },
  );
  program.exitOverride();
  process.exitCode = 0;
  await program.parseAsync(['node', 'gamedata', ...args]);
  const exitCode = process.exitCode ?? 0;
  process.exitCode = 0;
  return { out, err, exitCode };
}

test('mirror watch, list and unwatch keep the watch list in the store', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-cli-mirror-'));
  const env = { DATA_DIR: dir, LOG_LEVEL: 'silent' };
  try {
    const watched = await gamedata(env, 'mirror', 'watch', 'pc-b', 'Alice', 'Bob');
    assert.deepEqual(watched.out, ['2 added to the watch list (0 were on it)']);
    const again = await gamedata(env, 'mirror', 'watch', 'pc-b', 'Alice');
    assert.deepEqual(again.out, ['0 added to the watch list (1 were on it)']);
    const listed = await gamedata(env, 'mirror', 'list');
    assert.deepEqual(
      listed.out.map((line) => line.split('\t').slice(0, 3)),
      [
        ['pc-b', 'Alice', '-'],
        ['pc-b', 'Bob', '-'],
      ],
    );
    const removed = await gamedata(env, 'mirror', 'unwatch', 'pc-b', 'Bob', 'Carol');
    assert.deepEqual(removed.out, ['1 removed from the watch list']);
    assert.equal((await gamedata(env, 'mirror', 'list')).out.length, 1);

    const crawl = await gamedata(env, 'mirror', '--once');
    assert.equal(crawl.exitCode, 1);
    assert.match(crawl.err.join('\n'), /UPSTREAM_URL is not set/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
