import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedBest } from '../../src/domain/bounded-best.ts';

test('keeps the best of a stream, whatever the order it comes in', () => {
  const values = Array.from({ length: 500 }, (_, i) => (i * 7919) % 1009);
  const best = new BoundedBest<number>(25, (a, b) => a > b);
  for (const value of values) best.offer(value);
  const expected = [...values].sort((a, b) => b - a).slice(0, 25);
  assert.deepEqual(
    [...best.items()].sort((a, b) => b - a),
    expected,
  );
});

test('keeps everything below its capacity, and nothing at capacity 0', () => {
  const few = new BoundedBest<number>(10, (a, b) => a > b);
  for (const value of [3, 1, 2]) few.offer(value);
  assert.deepEqual([...few.items()].sort(), [1, 2, 3]);
  const none = new BoundedBest<number>(0, (a, b) => a > b);
  none.offer(1);
  assert.deepEqual(none.items(), []);
});

test('ties are broken by the order given: an equal item does not push out one kept', () => {
  const best = new BoundedBest<{ score: number; id: string }>(
    2,
    (a, b) => a.score > b.score || (a.score === b.score && a.id < b.id),
  );
  for (const id of ['c', 'a', 'b']) best.offer({ score: 1, id });
  assert.deepEqual(
    best
      .items()
      .map((item) => item.id)
      .sort(),
    ['a', 'b'],
  );
});
