import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import {
  microsPerRequest,
  parseProcStat,
  perCpuSecond,
  readProcessCpu,
  startCpuMeter,
} from '../../bench/cpu.ts';
import { childProcessesOf } from '../../src/jobs/job-priority.ts';

// pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
const STAT = '4242 (node) S 1 4242 4242 0 -1 4194560 9000 0 0 0 150 30 700 25 20 0 11 0 1234 0 0';

test('user and system time of the process and of its reaped children come from fields 14 to 17', () => {
  assert.deepEqual(parseProcStat(STAT), { selfMicros: 1_800_000, childrenMicros: 7_250_000 });
  assert.deepEqual(parseProcStat(STAT, 250), { selfMicros: 720_000, childrenMicros: 2_900_000 });
});

test('a command name with spaces and parentheses does not shift the fields', () => {
  const odd = STAT.replace('(node)', '(my (odd) name)');
  assert.deepEqual(parseProcStat(odd), parseProcStat(STAT));
});

test('text that is not a stat line is refused', () => {
  assert.throws(() => parseProcStat('no command name here'), /no command name/);
  assert.throws(() => parseProcStat('1 (x) S 1 2'), /missing CPU time fields/);
});

test('per-request and per-second figures are null when CPU is unknown or nothing was done', () => {
  assert.equal(microsPerRequest(2_000_000, 40_000), 50);
  assert.equal(microsPerRequest(null, 10), null);
  assert.equal(microsPerRequest(5, 0), null);
  assert.equal(perCpuSecond(32, 250_000), 128);
  assert.equal(perCpuSecond(32, null), null);
  assert.equal(perCpuSecond(32, 0), null);
});

test(
  'the meter of a live process counts the CPU it burns',
  { skip: !fs.existsSync('/proc/self/stat') },
  () => {
    assert.notEqual(readProcessCpu('self'), null);
    assert.equal(readProcessCpu(2 ** 22 + 12345), null);
    const meter = startCpuMeter(process.pid);
    const until = process.cpuUsage().user + 150_000;
    while (process.cpuUsage().user < until);
    const used = meter();
    // Ticks are 10 ms, so allow for the rounding at both ends.
    assert.ok(used !== null && used >= 120_000, `measured ${used} µs`);
  },
);

test(
  "a process's meter counts the processes it started, running or ended",
  { skip: !fs.existsSync('/proc/self/stat') },
  async () => {
    // A process whose child burns 200 ms of CPU and then waits (until its parent ends).
    const burn =
      'const until = process.cpuUsage().user + 200000; while (process.cpuUsage().user < until);';
    const parent = spawn(process.execPath, [
      '-e',
      `const { spawn } = require('node:child_process');
       const child = spawn(process.execPath, ['-e', ${JSON.stringify(`${burn} process.stdin.on('end', () => process.exit()).resume();`)}], { stdio: ['pipe', 'ignore', 'ignore'] });
       process.stdout.write(child.pid + '\\n');
       process.stdin.once('data', () => { child.kill(); child.once('exit', () => process.stdout.write('ended\\n')); });`,
    ]);
    const lines = readline.createInterface({ input: parent.stdout! })[Symbol.asyncIterator]();
    try {
      const meter = startCpuMeter(parent.pid!);
      const childPid = Number((await lines.next()).value);
      assert.deepEqual(childProcessesOf(parent.pid!), [childPid]);
      // Until the child has burnt its share (its own /proc entry counts it while it runs).
      while ((readProcessCpu(childPid)?.selfMicros ?? 0) < 180_000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const running = meter();
      assert.ok(running !== null && running >= 180_000, `while it runs: ${running} µs`);
      // Ended and waited for, it is counted in its parent's children's time instead.
      parent.stdin!.write('\n');
      assert.equal((await lines.next()).value, 'ended');
      assert.deepEqual(childProcessesOf(parent.pid!), []);
      const ended = meter();
      assert.ok(ended !== null && ended >= running, `once it ended: ${ended} µs`);
    } finally {
      parent.kill();
    }
  },
);
