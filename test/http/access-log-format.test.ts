/**
 * The access line's duration is written as `String(Math.round(ms * 100) / 100)` always was,
 * though it is now made from an integer and a table of fractions (src/http/access-log.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hundredths } from '../../src/http/access-log.ts';

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
