import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  failuresOf,
  mergeLatency,
  parseWrkOutput,
  percentileOf,
  type LatencyDistribution,
} from '../../bench/wrk-output.ts';

/** What wrk 4.1 prints with bench/wrk-report.lua, rotating over a 200 and a 404 path. */
const WRK_STDOUT = `Running 1s test @ http://127.0.0.1:18556/a
  1 threads and 2 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.96ms    3.15ms  18.11ms   86.58%
    Req/Sec     4.77k     2.36k    9.13k    60.00%
  4750 requests in 1.02s, 586.79KB read
  Non-2xx or 3xx responses: 2375
Requests/sec:   4675.65
Transfer/sec:    577.61KB
WRK_RESULT {"requests":4750,"durationUs":1015902,"bytes":600875,"errors":{"connect":0,"read":0,"write":0,"status":2375,"timeout":0},"latencyUs":{"mean":1959.1,"max":18111,"percentiles":[[50,147],[75,2675],[90,6282],[95,9135],[98,12377],[99,14005],[99.5,15206],[99.9,16994],[99.99,18111]]}}
`;

test('the result line of wrk-report.lua is read in seconds, milliseconds and counts', () => {
  const result = parseWrkOutput(WRK_STDOUT);
  assert.equal(result.requests, 4750);
  assert.equal(result.seconds, 1.015902);
  assert.equal(result.bytes, 600875);
  assert.equal(result.errors.status, 2375);
  assert.equal(failuresOf(result.errors), 2375);
  assert.equal(result.latency.count, 4750);
  assert.equal(result.latency.maxMs, 18.111);
  assert.ok(Math.abs(result.latency.meanMs - 1.9591) < 1e-9);
  assert.deepEqual(result.latency.percentiles[5], [99, 14.005]);
  assert.equal(percentileOf(result.latency, 99), 14.005);
});

test('output without the result line is an error that quotes it', () => {
  assert.throws(
    () => parseWrkOutput('unable to connect to 127.0.0.1:1 Connection refused\n'),
    /no result line:\nunable to connect/,
  );
});

test('socket errors, timeouts and bad statuses all count as failures', () => {
  assert.equal(failuresOf({ connect: 1, read: 2, write: 3, status: 4, timeout: 5 }), 15);
});

const run = (count: number, scale: number, maxMs = 10 * scale): LatencyDistribution => ({
  count,
  meanMs: scale,
  maxMs,
  percentiles: [
    [50, 1 * scale],
    [90, 2 * scale],
    [99, 5 * scale],
    [99.9, 8 * scale],
  ],
});

test('a percentile between two known points is interpolated, beyond the last one the maximum bounds it', () => {
  const distribution = run(1000, 1);
  assert.equal(percentileOf(distribution, 70), 1.5);
  assert.equal(percentileOf(distribution, 40), 1);
  assert.ok(Math.abs(percentileOf(distribution, 99.95) - 9) < 1e-9);
  assert.ok(Number.isNaN(percentileOf({ ...distribution, count: 0 }, 99)));
});

test('merging one run gives that run back', () => {
  assert.deepEqual(mergeLatency([run(1000, 1)]), run(1000, 1));
});

test('merged slices weigh each by its requests: a slow small slice raises the tail, not the median', () => {
  const merged = mergeLatency([run(9000, 1), run(1000, 10)]);
  assert.equal(merged.count, 10_000);
  assert.equal(merged.maxMs, 100);
  assert.ok(Math.abs(merged.meanMs - 1.9) < 1e-9);
  // The median lies in the fast slice, between its p50 (1 ms) and p90 (2 ms): the next known
  // point up is reported, never the slow slice's 10 ms.
  assert.equal(percentileOf(merged, 50), 2);
  // 1% of all requests is a tenth of the slow slice, whose p90 is 20 ms: p99 is at least that.
  const p99 = percentileOf(merged, 99);
  assert.ok(p99 >= 20 && p99 <= 50, `p99 ${p99}`);
  // Never less than any single slice's p99 weighted alone would suggest for the fast one.
  assert.ok(p99 >= 5);
});

test('empty runs are left out of a merge, and nothing at all merges to an empty distribution', () => {
  assert.deepEqual(mergeLatency([run(0, 50), run(1000, 1)]), run(1000, 1));
  assert.equal(mergeLatency([]).count, 0);
});
