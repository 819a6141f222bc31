import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyBudgets, type KeyLease } from '../../src/upstream/key-budget.ts';

const answer = (remaining: number, resetInMs = 60_000) => ({
  limit: 10,
  remaining,
  resetInMs,
  refused: false,
});

test('a key never heard from gets one request; its answer tells the budget', () => {
  let now = 0;
  const budgets = new KeyBudgets(['a'], () => now);
  const probe = budgets.take() as KeyLease;
  assert.equal(probe.key, 'a');
  assert.ok('waitMs' in budgets.take(), 'no second request before the answer');
  budgets.record(probe, answer(9));
  const sent: KeyLease[] = [];
  for (;;) {
    const taken = budgets.take();
    if ('waitMs' in taken) {
      assert.ok(taken.waitMs > 59_000 && taken.waitMs <= 60_250 + 1);
      break;
    }
    sent.push(taken);
  }
  assert.equal(sent.length, 9, 'exactly the remaining budget, never more');
  now = 61_000;
  assert.ok('key' in budgets.take(), 'a new window has budget again');
});

test('requests are spread over the keys, and a 429 stops a key until Retry-After', () => {
  const now = 0;
  const budgets = new KeyBudgets(['a', 'b'], () => now);
  const first = budgets.take() as KeyLease;
  const second = budgets.take() as KeyLease;
  assert.notEqual(first.key, second.key);
  budgets.record(first, answer(9));
  budgets.record(second, { limit: 10, remaining: 0, resetInMs: 5_000, refused: true });
  const keys = new Set<string>();
  for (let i = 0; i < 9; i++) keys.add((budgets.take() as KeyLease).key);
  assert.deepEqual([...keys], [first.key]);
  const wait = budgets.take();
  assert.ok('waitMs' in wait && wait.waitMs <= 5_250);
  assert.equal(budgets.counts.refused, 1);
});
