import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { reusableBuffers } from '../../src/ingest/reusable-buffers.ts';
import { readKeptFile } from '../../src/ingest/source-files.ts';

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

test('files are read into a kept buffer, exactly their bytes; a gzip file is gunzipped and its buffer kept', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-kept-read-'));
  try {
    const large = Buffer.alloc(300_000, 'a');
    const small = Buffer.from('{"small": true}');
    const plain = Buffer.from(JSON.stringify({ packed: 'x'.repeat(50_000) }));
    fs.writeFileSync(path.join(dir, 'large.json'), large);
    fs.writeFileSync(path.join(dir, 'small.json'), small);
    fs.writeFileSync(path.join(dir, 'packed.json.gz'), zlib.gzipSync(plain));
    const buffers = reusableBuffers(1, 8 * MIB);

    const first = readKeptFile(path.join(dir, 'large.json'), buffers);
    assert.ok(first.equals(large));
    buffers.give(first);
    const second = readKeptFile(path.join(dir, 'small.json'), buffers);
    assert.equal(second.buffer, first.buffer, 'the buffer the larger file was read into');
    assert.ok(second.equals(small), 'only its own bytes');
    // Out with its reader: the next file gets another buffer.
    const third = readKeptFile(path.join(dir, 'large.json'), buffers);
    assert.notEqual(third.buffer, first.buffer);
    buffers.give(second);
    buffers.give(third);

    // A gzip file: its gunzipped bytes, and the buffer its own bytes were read into kept.
    const unpacked = readKeptFile(path.join(dir, 'packed.json.gz'), buffers);
    assert.ok(unpacked.equals(plain));
    assert.notEqual(unpacked.buffer, first.buffer);
    assert.equal(readKeptFile(path.join(dir, 'small.json'), buffers).buffer, first.buffer);

    assert.throws(() => readKeptFile(path.join(dir, 'missing.json'), buffers), { code: 'ENOENT' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a pipe (`gamedata ingest <(zcat …)`) is read to its end, gunzipped, and leaves the kept buffers alone', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-kept-pipe-'));
  try {
    const text = Buffer.from(JSON.stringify({ piped: 'y'.repeat(300_000) }));
    // More than a pipe holds at once: the writer waits for the reader, as a real one would.
    fs.writeFileSync(path.join(dir, 'source.json.gz'), zlib.gzipSync(text, { level: 0 }));
    const fifo = path.join(dir, 'match.json');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', 'cat "$0" > "$1"', path.join(dir, 'source.json.gz'), fifo], {
      stdio: 'ignore',
    });
    const buffers = reusableBuffers(1, 8 * MIB);
    const kept = buffers.take(100);
    buffers.give(kept);

    const read = readKeptFile(fifo, buffers);
    assert.ok(read.equals(text), 'every byte, gunzipped');
    await once(writer, 'exit');
    // Nothing of the pool was used: the next regular file still lands in the kept buffer.
    fs.writeFileSync(path.join(dir, 'plain.json'), '{}');
    assert.equal(readKeptFile(path.join(dir, 'plain.json'), buffers).buffer, kept.buffer);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
