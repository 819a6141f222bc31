import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDataSetOf } from '../../bench/bench-data.ts';
import { planPinning } from '../../bench/children.ts';
import { routeTemplate } from '../../bench/discover-paths.ts';
import { summariseProbe, type ProbeSample } from '../../bench/latency-probe.ts';
import { parseBenchOptions } from '../../bench/options.ts';
import { latencyCell, markdownTable, ratioCell } from '../../bench/report.ts';

test('servers get the last core and the load generator the others', () => {
  assert.deepEqual(planPinning(2, true, true), {
    servers: '1',
    load: '0',
    every: '0-1',
    description: 'servers on CPU 1; wrk and the bench on CPU 0',
  });
  assert.equal(planPinning(8, true, true).load, '0-6');
  assert.equal(planPinning(8, true, true).servers, '7');
  assert.equal(planPinning(8, true, true).every, '0-7');
  for (const unpinned of [
    planPinning(1, true, true),
    planPinning(4, false, true),
    planPinning(4, true, false),
  ]) {
    assert.equal(unpinned.servers, null);
    assert.equal(unpinned.load, null);
    assert.equal(unpinned.every, null);
    assert.match(unpinned.description, /^not pinned/);
  }
});

test('OpenAPI paths are compared with their parameters unnamed', () => {
  assert.equal(
    routeTemplate('/shards/{shard}/players/{accountId}/seasons/{seasonId}/ranked'),
    '/shards/{}/players/{}/seasons/{}/ranked',
  );
});

const sample = (sentAt: number, latencyMs: number, status = 200): ProbeSample => ({
  path: '/status',
  sentAt,
  latencyMs,
  status,
});

test('the probe summary covers the samples sent within the window; failures count apart', () => {
  const samples = [
    ...Array.from({ length: 100 }, (_, i) => sample(i, i + 1)),
    sample(50, 5000, 0),
    sample(500, 9999),
  ];
  const all = summariseProbe(samples);
  assert.equal(all.requests, 102);
  assert.equal(all.failures, 1);
  assert.equal(all.maxMs, 9999);
  const window = summariseProbe(samples, 0, 100);
  assert.equal(window.requests, 101);
  assert.equal(window.p50Ms, 50);
  assert.equal(window.p99Ms, 99);
  assert.equal(window.maxMs, 100);
  assert.deepEqual(
    window.slowest.map((s) => [s.latencyMs, s.sentAfterMs]),
    [
      [100, 99],
      [99, 98],
      [98, 97],
    ],
  );
  assert.deepEqual(all.slowest[0], { path: '/status', sentAfterMs: 500, latencyMs: 9999 });
  assert.ok(Number.isNaN(summariseProbe(samples, 1000, 2000).p99Ms));
});

test('ratios and latencies are marked against their goals', () => {
  assert.equal(ratioCell(0.912, 0.9), '0.91× ✓');
  assert.equal(ratioCell(0.74, 0.9), '0.74× ✗');
  assert.equal(ratioCell(0.74, null), '0.74×');
  assert.equal(ratioCell(null, 0.9), '—');
  assert.equal(latencyCell(3.21), '3.21 ✓');
  assert.equal(latencyCell(25.8), '25.8 ✗');
  assert.equal(latencyCell(25.8, null), '25.8');
});

test('tables are Markdown with numbers right-aligned', () => {
  assert.equal(
    markdownTable(
      ['endpoint', 'req/s'],
      [
        ['match', '9,000'],
        ['/status', '12'],
      ],
    ),
    [
      '| endpoint | req/s |',
      '|----------|------:|',
      '| match    | 9,000 |',
      '| /status  |    12 |',
    ].join('\n'),
  );
});

test('a data set grown to a million players is told apart from the demo it was grown from', () => {
  const demo = 'seed1-scale1-';
  const grown = 'seed1-scale1-players1000000-';
  assert.ok(isDataSetOf('seed1-scale1-2026-11-29-51b449811800', demo));
  assert.ok(isDataSetOf('seed1-scale1-2026-11-29-51b449811800.partial', demo));
  assert.ok(!isDataSetOf('seed1-scale1-players1000000-2026-11-29-51b449811800', demo));
  assert.ok(isDataSetOf('seed1-scale1-players1000000-2026-11-29-51b449811800', grown));
  assert.ok(!isDataSetOf('seed1-scale10-2026-11-29-51b449811800', demo));
});

test('--players asks for a grown store; without it the demo is measured as generated', () => {
  assert.equal(parseBenchOptions(['--players', '1000000']).players, 1_000_000);
  assert.equal(parseBenchOptions([]).players, undefined);
});
