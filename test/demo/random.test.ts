import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRandom, deriveSeed, timeUuid } from '../../src/demo/random.ts';

const draw = (seed: number, n = 20): number[] => {
  const random = createRandom(seed);
  return Array.from({ length: n }, () => random.next());
};

test('the same seed gives the same sequence, another seed another one', () => {
  assert.deepEqual(draw(42), draw(42));
  assert.notDeepEqual(draw(42), draw(43));
  assert.ok(draw(7, 1000).every((x) => x >= 0 && x < 1));
});

test('derived seeds depend on every label', () => {
  assert.equal(deriveSeed(1, 'match', 3), deriveSeed(1, 'match', 3));
  assert.notEqual(deriveSeed(1, 'match', 3), deriveSeed(1, 'match', 4));
  assert.notEqual(deriveSeed(1, 'match', 3), deriveSeed(2, 'match', 3));
});

test('helpers stay in their ranges and formats', () => {
  const random = createRandom(5);
  for (let i = 0; i < 2000; i++) {
    const n = random.int(-3, 3);
    assert.ok(Number.isInteger(n) && n >= -3 && n <= 3);
    assert.ok(random.weightedIndex([0, 1, 0, 2]) % 2 === 1, 'zero weights never picked');
    assert.ok(random.poisson(2) >= 0);
  }
  assert.match(
    random.uuid(),
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
  assert.match(random.accountId(), /^account\.[0-9a-f]{32}$/);
  const items = Array.from({ length: 50 }, (_, i) => i);
  assert.deepEqual(
    [...random.shuffle([...items])].sort((a, b) => a - b),
    items,
  );
});

test('time UUIDs are version 1 and carry their instant', () => {
  const at = Date.parse('2026-11-20T22:12:30Z');
  const id = timeUuid(at, createRandom(1));
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const [low, mid, high] = id.split('-') as [string, string, string];
  const ticks = BigInt(`0x${high.slice(1)}${mid}${low}`) - 122_192_928_000_000_000n;
  assert.equal(Number(ticks / 10_000n), at);
});
