/**
 * A key's remaining budget is written without V8's number-string cache (src/http/decimal-text.ts)
 * but must read exactly as `String(n)` wrote it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decimalText } from '../../src/http/decimal-text.ts';

test('every count up to a few million is written as String writes it', () => {
  for (let n = 0; n <= 3_000_000; n++) {
    if (decimalText(n) !== String(n)) assert.equal(decimalText(n), String(n), `n ${n}`);
  }
});

test('groups with zeros, large budgets and values that are not counts read as String reads them', () => {
  const values = [1000, 1001, 1010, 1100, 10_000_007, 1_000_000_000, 2_000_000_000_000];
  values.push(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, 1e21, 1e300);
  values.push(-1, -1000, -0, 0.5, 1234.5, Number.NaN, Number.POSITIVE_INFINITY);
  for (let i = 0; i < 10_000; i++) values.push(Math.floor((i * 7919) ** 1.7));
  for (const n of values) assert.equal(decimalText(n), String(n), `n ${n}`);
});
