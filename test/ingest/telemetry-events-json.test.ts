import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { eventsJson, gzip } from '../../src/ingest/telemetry-file.ts';
import { sampleTelemetry } from '../helpers/matches.ts';

/** The bytes JSON.stringify gives: what a file of parsed events held before. */
const stringified = (events: unknown[]): Buffer => Buffer.from(JSON.stringify(events));

test('events are written as the very bytes JSON.stringify of the array gives', () => {
  const events = sampleTelemetry('9a1f7c2e-0b4d-4e8a-9c3f-5d6e7f8a9b0c', Date.now());
  assert.ok(eventsJson(events).equals(stringified(events)));
  assert.equal(eventsJson([]).toString(), '[]');
});

test('text that is not ASCII, and elements JSON has no text for, come out alike', () => {
  const cases: unknown[][] = [
    [{ _T: 'LogChat', name: 'Ünsal', text: '勝った 😀' }],
    [{ a: 1 }, undefined, () => 1, null, 1.5, 'x', [1e-7, 1.0], { skip: undefined }],
    [{ lone: '\ud800' }, { a: 'é' }, { b: 'plain' }],
    ['é'.repeat(5000), 'a'.repeat(5000)],
    // As many bytes as UTF-16 units fit before the last character: a buffer sized by units
    // once cut it off there unnoticed.
    [{ b: '€€😀' }],
  ];
  for (const events of cases) {
    assert.equal(eventsJson(events).toString(), stringified(events).toString());
    assert.ok(eventsJson(events).equals(stringified(events)));
  }
});

test('random text of one- to four-byte characters comes out alike', () => {
  const alphabet = ['a', '"', '\\', '\n', 'é', '€', '勝', '😀', '\u0000'];
  let seed = 1;
  const next = (n: number): number => {
    seed = (seed * 48271) % 2147483647;
    return seed % n;
  };
  for (let round = 0; round < 300; round++) {
    const events = Array.from({ length: 1 + next(5) }, () => ({
      text: Array.from({ length: next(12) }, () => alphabet[next(alphabet.length)]).join(''),
    }));
    assert.ok(eventsJson(events).equals(stringified(events)), JSON.stringify(events));
  }
});

test('a telemetry file is gzipped to the bytes zlib gives, in a buffer of its own', async () => {
  const events = sampleTelemetry('9a1f7c2e-0b4d-4e8a-9c3f-5d6e7f8a9b0c', Date.now());
  // Small, large, and incompressible text: one output chunk, or several.
  const random = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251));
  for (const plain of [Buffer.from('[]'), eventsJson(Array(40).fill(events).flat()), random]) {
    const packed = await gzip(plain);
    assert.ok(packed.equals(zlib.gzipSync(plain)));
    assert.equal(packed.byteLength, packed.buffer.byteLength);
  }
});
