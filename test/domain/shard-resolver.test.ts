import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  REGIONS,
  VENDOR_SHARD_ALIASES,
  resolveShard,
  servesPlatform,
  shardResolver,
  spellShard,
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

test('console is a shard only to readers that ask for combined shards, and spans both consoles', () => {
  assert.equal(resolveShard('console', aliases), null, 'one platform per shard by default');
  assert.equal(shardResolver(aliases)('console'), null);
  const console = resolveShard('console', aliases, { combined: true });
  assert.deepEqual(console?.platforms, ['console-a', 'console-b']);
  assert.equal(console?.isCombined, true);
  assert.equal(console?.isPlatform, true);
  assert.equal(console?.isRegion, false);
  assert.ok(servesPlatform(console!, 'console-a') && servesPlatform(console!, 'console-b'));
  assert.ok(!servesPlatform(console!, 'pc-b'));
  assert.ok(!servesPlatform(resolveShard('psn', aliases)!, 'console-b'), 'psn is console-a alone');
  // Its clients speak the vendor's words: the platforms are spelled by their aliases.
  assert.equal(spellShard('console-b', console!, aliases), 'xbox');
  assert.equal(spellShard('console-a', console!, {}), 'console-a', 'canonical without aliases');
  // An alias of the combined shard resolves to it as well.
  const aliased = resolveShard('ps-and-xbox', { 'ps-and-xbox': 'console' }, { combined: true });
  assert.equal(aliased?.canonical, 'console');
  assert.equal(aliased?.spelling, 'ps-and-xbox');
  // Other shards are one platform each, combined asked for or not.
  assert.deepEqual(resolveShard('psn', aliases, { combined: true })?.platforms, ['console-a']);
  assert.equal(resolveShard('psn', aliases, { combined: true })?.isCombined, false);
});
