import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { parseVmRss, readRss, readTreeRss, rssCell, watchRss } from '../../bench/memory.ts';

const STATUS = [
  'Name:\tnode',
  'VmPeak:\t 1234567 kB',
  'VmHWM:\t  400000 kB',
  'VmRSS:\t  150000 kB',
  'Threads:\t11',
].join('\n');

test('the resident set is the VmRSS line, in bytes, not the peak or the high-water mark', () => {
  assert.equal(parseVmRss(STATUS), 150_000 * 1024);
  assert.equal(parseVmRss('Name:\tkthreadd\nThreads:\t1'), null);
});

test('cells show MB against the 300 MB goal', () => {
  assert.equal(rssCell(299_000_000), '299 ✓');
  assert.equal(rssCell(301_000_000), '301 ✗');
  assert.equal(rssCell(null), '–');
});

test(
  'a watch keeps the largest RSS it saw, also once the process is gone',
  { skip: !fs.existsSync('/proc/self/status') },
  async () => {
    assert.equal(readRss(2 ** 22 + 12345), null);
    // A process that touches 64 MiB for a moment and exits: only samples taken meanwhile see it.
    const child = spawn(process.execPath, [
      '-e',
      'const b = Buffer.alloc(64 * 2 ** 20, 1); setTimeout(() => process.exit(b[0] - 1), 300);',
    ]);
    const watch = watchRss(child.pid!, 10);
    const [code] = (await once(child, 'exit')) as [number];
    assert.equal(code, 0);
    assert.equal(readRss(child.pid!), null);
    const peak = watch.stop();
    assert.ok(peak !== null && peak >= 64 * 2 ** 20, `peak ${peak}`);
  },
);

test(
  "a process's RSS counts the processes it started",
  { skip: !fs.existsSync('/proc/self/status') },
  async () => {
    // A parent holding little whose child holds 64 MiB until the parent ends.
    const parent = spawn(process.execPath, [
      '-e',
      `const child = require('node:child_process').spawn(process.execPath, ['-e',
         'const b = Buffer.alloc(64 * 2 ** 20, 1); process.stdout.write("held"); process.stdin.on("end", () => process.exit(b[1] - 1)).resume();'],
         { stdio: ['pipe', 'pipe', 'ignore'] });
       child.stdout.once('data', () => process.stdout.write('held'));`,
    ]);
    try {
      await once(parent.stdout!, 'data');
      const own = readRss(parent.pid!)!;
      const tree = readTreeRss(parent.pid!)!;
      assert.ok(own < 64 * 2 ** 20, `the parent alone: ${own}`);
      assert.ok(tree >= own + 64 * 2 ** 20, `with its child: ${tree}`);
      const watch = watchRss(parent.pid!, 10);
      assert.ok(watch.stop()! >= tree - 8 * 2 ** 20, 'a watch sees the child too');
    } finally {
      parent.kill();
    }
  },
);
