/**
 * Observations into one label set of a prom-client Histogram, made without the per-call work of
 * `histogram.labels(…).observe(v)`: that call checks the label names, builds the label set's
 * lookup string and looks it up in the histogram's map on every observation — about a
 * microsecond, several percent of a cached answer (README "Metrics"). Here the label set's value
 * cell is found once and its count, sum and bucket are added to directly, as prom-client's own
 * `observe` adds to them; prom-client still owns the series and writes the exposition.
 *
 * This relies on how prom-client 15 keeps a histogram's values (a `hashMap` of cells
 * `{ labels, bucketValues, sum, count }`, bucket counts keyed by upper bound). The shape is
 * checked whenever the cell is looked up, and the cell is looked up again whenever the map or
 * the cell was replaced (`reset`, `remove`); anything unexpected falls back to the child's own
 * `observe`, so a different prom-client costs speed, never a lost observation.
 */
import type { Histogram, LabelValues } from 'prom-client';

/** One label set's values, as prom-client keeps them. */
interface ValueCell {
  labels: Record<string, string | number>;
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
  bucketExemplars?: unknown;
}

/** What this reads of a Histogram besides its public methods. */
interface HistogramInternals {
  hashMap?: Record<string, ValueCell>;
  upperBounds?: readonly number[];
}

/** Records one observation, in the histogram's unit. */
export type Observe = (value: number) => void;

const sameLabels = (a: Record<string, unknown>, b: Record<string, unknown>): boolean => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => String(a[key]) === b[key]);
};

/** An `observe` of `labels` in `histogram` (labels as the histogram's label names). */
export function histogramCell<T extends string>(
  histogram: Histogram<T>,
  labels: LabelValues<T>,
): Observe {
  const child = histogram.labels(labels);
  const internals = histogram as unknown as HistogramInternals;
  const bounds = internals.upperBounds ?? [];
  const bucketKeys = bounds.map(String);
  let map: Record<string, ValueCell> | undefined;
  let key = '';
  let cell: ValueCell | undefined;

  /** Finds (or makes, with `zero`) the label set's cell; false when it is not as expected. */
  function lookUp(): boolean {
    const find = (): string | undefined =>
      Object.keys(internals.hashMap ?? {}).find((name) =>
        sameLabels(labels as Record<string, unknown>, internals.hashMap![name]!.labels),
      );
    let found = find();
    if (found === undefined) {
      histogram.zero(labels);
      found = find();
    }
    map = internals.hashMap;
    const candidate = found === undefined ? undefined : map?.[found];
    const usable =
      candidate !== undefined &&
      candidate.bucketExemplars === undefined &&
      typeof candidate.sum === 'number' &&
      typeof candidate.count === 'number' &&
      bucketKeys.length > 0 &&
      bucketKeys.every((bucket) => typeof candidate.bucketValues?.[bucket] === 'number');
    cell = usable ? candidate : undefined;
    key = found ?? '';
    return usable;
  }

  /** Set once the cell is not as expected: then every observation is the child's. */
  let foreign = false;

  return (value) => {
    // Not finite: prom-client's own observe throws, as it should.
    if (foreign || !Number.isFinite(value)) return child.observe(value);
    if ((internals.hashMap !== map || map![key] !== cell) && !lookUp()) {
      foreign = true;
      return child.observe(value);
    }
    const target = cell!;
    target.sum += value;
    target.count += 1;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        target.bucketValues[bucketKeys[i]!]! += 1;
        return;
      }
    }
  };
}
