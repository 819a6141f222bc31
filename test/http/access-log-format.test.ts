/**
 * The access line's duration is written as `String(Math.round(ms * 100) / 100)` always was,
 * though it is now written digit by digit into the line's bytes (src/http/access-line-bytes.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeHundredths } from '../../src/http/access-line-bytes.ts';

const room = Buffer.alloc(64);
/** The bytes written for `ms`, after a byte that must stay as it is. */
function hundredths(ms: number): string {
  room[0] = 0x7c;
  const end = writeHundredths(room, 1, ms);
  assert.equal(room[0], 0x7c);
  return room.toString('latin1', 1, end);
}

const asBefore = (ms: number): string => String(Math.round(ms * 100) / 100);

test('every duration in hundredths of a ms is written as JavaScript prints it', () => {
  for (let total = 0; total <= 200_000; total++) {
    const ms = total / 100;
    assert.equal(hundredths(ms), asBefore(ms), `ms ${ms}`);
  }
});

test('durations between hundredths, edges and values beyond the table round as before', () => {
  const values = [0, -0, 0.004, 0.005, 0.0149, 0.015, 0.125, 1.005, 99.995, 1234.5678];
  values.push(21_474_836.47, 21_474_836.48, 1e30, Number.NaN, Number.POSITIVE_INFINITY);
  for (let i = 0; i < 10_000; i++) values.push((i * 7919) / 997 / 13);
  for (const ms of values) assert.equal(hundredths(ms), asBefore(ms), `ms ${ms}`);
});
