import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reusableBuffers } from '../../src/ingest/reusable-buffers.ts';

const MIB = 1_048_576;

test('a buffer given back is taken again for a body of its size or less, never while out', () => {
  const buffers = reusableBuffers(2, 8 * MIB);
  const first = buffers.take(2_200_000);
  assert.equal(first.length, 2_200_000);
  // Out with its taker: the next body gets another buffer.
  const second = buffers.take(1_000);
  assert.notEqual(second.buffer, first.buffer);
  buffers.give(first);
  const again = buffers.take(2_000_000);
  assert.equal(again.buffer, first.buffer, 'the kept buffer');
  assert.equal(again.length, 2_000_000, 'exactly the size asked for');
  // Larger than any kept: a new one.
  buffers.give(again);
  assert.notEqual(buffers.take(3 * MIB + 1).buffer, first.buffer);
});

test('only buffers taken here and not given back yet are kept, at most `keep` of them', () => {
  const buffers = reusableBuffers(1, 8 * MIB);
  const a = buffers.take(100_000);
  const b = buffers.take(100_000);
  buffers.give(a);
  buffers.give(a); // twice: ignored
  buffers.give(Buffer.alloc(100_000)); // not ours: ignored
  buffers.give(b); // one kept already
  const next = buffers.take(100_000);
  assert.equal(next.buffer, a.buffer);
  // `a` is out again: a second give of the old view must not hand it to two takers.
  assert.notEqual(buffers.take(100_000).buffer, a.buffer);
});

test('a body above the limit gets a buffer of its own, never kept', () => {
  const buffers = reusableBuffers(2, 8 * MIB);
  const large = buffers.take(8 * MIB + 1);
  assert.equal(large.byteLength, large.buffer.byteLength, 'a buffer of its own');
  buffers.give(large);
  assert.notEqual(buffers.take(8 * MIB).buffer, large.buffer);
});
