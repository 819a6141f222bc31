/**
 * Observations through a histogram's label-set cell (src/http/histogram-cell.ts) end up exactly
 * as prom-client's own `observe` would put them: same exposition, earlier observations kept, and
 * still counted after the histogram is reset or the label set removed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Histogram, Registry } from 'prom-client';
import { histogramCell } from '../../src/http/histogram-cell.ts';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.1, 1];
const LABELS = { method: 'GET', route: '/shards/:shard/matches/:matchId', status: '200' };
const OTHER = { method: 'GET', route: '/status', status: '200' };
const VALUES = [0.0001, 0.0005, 0.0007, 0.003, 0.02, 0.5, 1, 7, 0];

function histogram(): { registry: Registry; metric: Histogram<'method' | 'route' | 'status'> } {
  const registry = new Registry();
  const metric = new Histogram({
    name: 'test_duration_seconds',
    help: 'test',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  return { registry, metric };
}

test('observations through the cell are exposed as observe would expose them', async () => {
  const viaCell = histogram();
  const viaObserve = histogram();
  // Observed before the cell is made: kept, not zeroed.
  viaCell.metric.labels(LABELS).observe(0.004);
  viaObserve.metric.labels(LABELS).observe(0.004);
  const observe = histogramCell(viaCell.metric, LABELS);
  const other = histogramCell(viaCell.metric, OTHER);
  for (const value of VALUES) {
    observe(value);
    viaObserve.metric.labels(LABELS).observe(value);
  }
  other(0.002);
  viaObserve.metric.labels(OTHER).observe(0.002);
  assert.equal(await viaCell.registry.metrics(), await viaObserve.registry.metrics());
});

test('the cell follows a reset and a removed label set', async () => {
  const viaCell = histogram();
  const viaObserve = histogram();
  const observe = histogramCell(viaCell.metric, LABELS);
  observe(0.003);
  viaCell.metric.reset();
  observe(0.02);
  viaObserve.metric.labels(LABELS).observe(0.02);
  assert.equal(await viaCell.registry.metrics(), await viaObserve.registry.metrics());
  viaCell.metric.remove(LABELS);
  viaObserve.metric.remove(LABELS);
  observe(0.0002);
  viaObserve.metric.labels(LABELS).observe(0.0002);
  assert.equal(await viaCell.registry.metrics(), await viaObserve.registry.metrics());
});

test('a value that is not a number is refused as observe refuses it', () => {
  const observe = histogramCell(histogram().metric, LABELS);
  assert.throws(() => observe(Number.NaN), TypeError);
});
