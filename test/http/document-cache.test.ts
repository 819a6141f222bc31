import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentCache } from '../../src/http/document-cache.ts';

const KB = 1024;

test('keeps what fits and evicts to stay within its byte bound', () => {
  const cache = new DocumentCache<string>(10 * KB);
  for (let i = 0; i < 20; i++) cache.set(`k${i}`, `v${i}`, 2 * KB);
  assert.ok(cache.size <= 10 * KB, `${cache.size} bytes held`);
  assert.ok(cache.count >= 3);
  assert.equal(cache.get('k19'), 'v19');
  assert.equal(cache.get('k0'), undefined);
});

test('gives entries read since the last sweep a second chance', () => {
  const cache = new DocumentCache<string>(10 * KB);
  for (let i = 0; i < 4; i++) cache.set(`k${i}`, `v${i}`, 2 * KB);
  assert.equal(cache.get('k0'), 'v0');
  cache.set('k4', 'v4', 2 * KB);
  assert.equal(cache.get('k0'), 'v0', 'the oldest entry was read, so it stays');
  assert.equal(cache.get('k1'), undefined, 'the oldest unread entry goes');
});

test('replacing a key re-counts its bytes', () => {
  const cache = new DocumentCache<string>(10 * KB);
  cache.set('k', 'small', KB);
  const small = cache.size;
  cache.set('k', 'large', 4 * KB);
  assert.equal(cache.size, small + 3 * KB);
  assert.equal(cache.count, 1);
  cache.delete('k');
  assert.equal(cache.size, 0);
});

test('does not keep a value larger than the bound, and keeps nothing when the bound is 0', () => {
  const cache = new DocumentCache<string>(4 * KB);
  cache.set('big', 'v', 8 * KB);
  assert.equal(cache.get('big'), undefined);
  const disabled = new DocumentCache<string>(0);
  disabled.set('k', 'v', 1);
  assert.equal(disabled.get('k'), undefined);
});

test('deletes the entries a predicate picks, and their bytes', () => {
  const cache = new DocumentCache<number>(100 * KB);
  for (let i = 0; i < 6; i++) cache.set(`k${i}`, i, KB);
  const one = cache.size / 6;
  assert.equal(
    cache.deleteWhere((value) => value % 2 === 0),
    3,
  );
  assert.equal(cache.count, 3);
  assert.equal(cache.size, 3 * one);
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((i) => cache.peek(`k${i}`)),
    [undefined, 1, undefined, 3, undefined, 5],
  );
});
