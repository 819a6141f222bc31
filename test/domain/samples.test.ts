import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  earliestSampleTime,
  latestSampleTime,
  pickAtRandom,
  sampleTimeCovering,
  sampleTimeRange,
} from '../../src/domain/samples.ts';

const DAY = 86_400_000;
const at = (text: string): number => Date.parse(text);
const iso = (ms: number): string => new Date(ms).toISOString();

test('a time belongs to the window that ends at the next midnight; midnight itself opens a window', () => {
  assert.equal(
    iso(sampleTimeCovering(at('2026-11-19T13:45:00Z'), DAY)),
    '2026-11-20T00:00:00.000Z',
  );
  assert.equal(
    iso(sampleTimeCovering(at('2026-11-19T00:00:00Z'), DAY)),
    '2026-11-20T00:00:00.000Z',
  );
  assert.equal(
    iso(sampleTimeCovering(at('2026-11-19T23:59:59.999Z'), DAY)),
    '2026-11-20T00:00:00.000Z',
  );
  assert.equal(iso(latestSampleTime(at('2026-11-20T12:00:00Z'), DAY)), '2026-11-20T00:00:00.000Z');
  assert.equal(iso(latestSampleTime(at('2026-11-20T00:00:00Z'), DAY)), '2026-11-20T00:00:00.000Z');
});

test('the earliest sample is the one covering the retention cutoff; none without retention', () => {
  const now = at('2026-11-20T12:00:00Z');
  assert.equal(iso(earliestSampleTime(14, now, DAY)), '2026-11-07T00:00:00.000Z');
  assert.equal(earliestSampleTime(0, now, DAY), -Infinity);
});

test('sample times range from the later of retention and the oldest match to the latest midnight', () => {
  const now = at('2026-11-20T12:00:00Z');
  const range = (oldestMatchAt: number | null, retentionDays = 14) => {
    const { first, latest } = sampleTimeRange({ now, periodMs: DAY, retentionDays, oldestMatchAt });
    return [iso(first).slice(0, 10), iso(latest).slice(0, 10)];
  };
  assert.deepEqual(range(at('2026-10-01T00:00:00Z')), ['2026-11-07', '2026-11-20']);
  assert.deepEqual(range(at('2026-11-18T08:00:00Z')), ['2026-11-19', '2026-11-20']);
  assert.deepEqual(range(null), ['2026-11-20', '2026-11-20']);
  assert.deepEqual(
    range(at('2026-11-20T08:00:00Z')),
    ['2026-11-20', '2026-11-20'],
    'a match of the running day',
  );
  assert.deepEqual(range(at('2018-03-01T08:00:00Z'), 0), ['2018-03-02', '2026-11-20']);
});

test('a random pick takes distinct items, at most the size asked for', () => {
  const items = Array.from({ length: 10 }, (_, i) => i);
  const picked = pickAtRandom(items, 4);
  assert.equal(picked.length, 4);
  assert.equal(new Set(picked).size, 4);
  for (const item of picked) assert.ok(items.includes(item));
  assert.deepEqual(
    pickAtRandom(items, 20).sort((a, b) => a - b),
    items,
    'all of them when fewer',
  );
  assert.deepEqual(
    pickAtRandom(items, 3, () => 0),
    [0, 1, 2],
    'the draw decides the order',
  );
  assert.deepEqual(
    pickAtRandom(items, 2, (n) => n - 1),
    [9, 0],
    'each draw swaps the chosen item to the front of the pool',
  );
  assert.deepEqual(
    items,
    Array.from({ length: 10 }, (_, i) => i),
    'the input is left alone',
  );
});
