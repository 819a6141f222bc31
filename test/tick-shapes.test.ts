/**
 * What src/tick-shapes.ts rests on: inside a nextTick callback, the current async resource is
 * the tick's own queue entry: the object whose hidden classes are to be kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executionAsyncResource } from 'node:async_hooks';

test("a tick's current async resource is its queue entry, holding its callback and arguments", async () => {
  const callback = (value: number): void => {
    seen.push({ entry: executionAsyncResource() as Record<string, unknown>, value });
  };
  const seen: Array<{ entry: Record<string, unknown>; value: number }> = [];
  process.nextTick(callback, 7);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.value, 7);
  assert.equal(seen[0]!.entry.callback, callback);
  assert.deepEqual(seen[0]!.entry.args, [7]);
  // The async id and trigger id, under symbols of Node's own.
  assert.equal(Object.getOwnPropertySymbols(seen[0]!.entry).length, 2);
});
