import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  microsPerRequest,
  parseProcStat,
  perCpuSecond,
  readProcessCpu,
  startCpuMeter,
} from '../../bench/cpu.ts';

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
