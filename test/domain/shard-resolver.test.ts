import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  REGIONS,
  VENDOR_SHARD_ALIASES,
  resolveShard,
  shardResolver,
} from '../../src/domain/shards.ts';

const aliases = { ...VENDOR_SHARD_ALIASES, 'my-eu': 'pc-eu' };

test('a shard resolver answers what resolveShard answers, for every shard and alias', () => {
  const resolve = shardResolver(aliases);
  for (const spelling of [...REGIONS, 'pc-a', 'pc-b', ...Object.keys(aliases), 'nowhere', '']) {
    assert.deepEqual(resolve(spelling), resolveShard(spelling, aliases), spelling);
    // Asked again, the same answer (from memory for a shard, again null for an unknown one).
    assert.deepEqual(resolve(spelling), resolveShard(spelling, aliases), `${spelling} again`);
  }
});

test('a shard resolver remembers the shard of a spelling, and keeps each resolver its aliases', () => {
  const resolve = shardResolver(aliases);
  const first = resolve('steam');
  assert.equal(first?.platform, 'pc-b');
  assert.equal(resolve('steam'), first);
  assert.equal(shardResolver({})('steam'), null);
  assert.equal(shardResolver({})('my-eu'), null);
  assert.equal(resolve('my-eu')?.canonical, 'pc-eu');
});
