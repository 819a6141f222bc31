/**
 * What a wrk run measured, parsed from the `WRK_RESULT {json}` line that `wrk-report.lua`
 * prints, and the merging of several runs (the slices of one row) into one figure. Pure.
 */

/** A latency distribution: `percentiles` holds [percent, ms] pairs, ascending. */
export interface LatencyDistribution {
  /** Requests the distribution is made of. */
  count: number;
  meanMs: number;
  maxMs: number;
  percentiles: Array<[number, number]>;
}

export interface WrkErrors {
  connect: number;
  read: number;
  write: number;
  /** Answers with a status outside 2xx and 3xx. */
  status: number;
  timeout: number;
}

export interface WrkResult {
  requests: number;
  seconds: number;
  bytes: number;
  errors: WrkErrors;
  latency: LatencyDistribution;
}

const MARKER = 'WRK_RESULT ';

interface RawResult {
  requests: number;
  durationUs: number;
  bytes: number;
  errors: WrkErrors;
  latencyUs: { mean: number; max: number; percentiles: Array<[number, number]> };
}

/** Parses wrk's standard output; throws, quoting it, when the result line is missing. */
export function parseWrkOutput(stdout: string): WrkResult {
  const line = stdout.split('\n').find((text) => text.startsWith(MARKER));
  if (line === undefined) {
    throw new Error(`wrk printed no result line:\n${stdout.slice(0, 2000)}`);
  }
  const raw = JSON.parse(line.slice(MARKER.length)) as RawResult;
  const ms = (us: number): number => us / 1000;
  return {
    requests: raw.requests,
    seconds: raw.durationUs / 1_000_000,
    bytes: raw.bytes,
    errors: raw.errors,
    latency: {
      count: raw.requests,
      meanMs: ms(raw.latencyUs.mean),
      maxMs: ms(raw.latencyUs.max),
      percentiles: raw.latencyUs.percentiles.map(([p, us]) => [p, ms(us)]),
    },
  };
}

/** Failed requests of a run: socket errors, timeouts and non-2xx/3xx answers. */
export function failuresOf(errors: WrkErrors): number {
  return errors.connect + errors.read + errors.write + errors.status + errors.timeout;
}

/**
 * The latency at `percent` of a distribution, interpolated between its known points (and the
 * maximum for 100); NaN for an empty distribution.
 */
export function percentileOf(distribution: LatencyDistribution, percent: number): number {
  if (distribution.count === 0) return NaN;
  const points: Array<[number, number]> = [...distribution.percentiles, [100, distribution.maxMs]];
  const upper = points.findIndex(([p]) => p >= percent);
  if (upper <= 0) return points[Math.max(upper, 0)]![1];
  const [p0, v0] = points[upper - 1]!;
  const [p1, v1] = points[upper]!;
  return v0 + ((v1 - v0) * (percent - p0)) / (p1 - p0);
}

/**
 * One distribution for several runs, as if their requests had been measured together. Each
 * run's cumulative distribution is taken as a step function through its known points (a
 * latency counts at the highest percentile whose value does not exceed it), weighted by its
 * request count; every merged percentile is the smallest known latency reaching it. This never
 * reports less than the truth at those points, and equals a single run's figures for one run.
 */
export function mergeLatency(runs: LatencyDistribution[]): LatencyDistribution {
  const parts = runs.filter((run) => run.count > 0);
  const count = parts.reduce((sum, run) => sum + run.count, 0);
  if (count === 0) return { count: 0, meanMs: NaN, maxMs: NaN, percentiles: [] };
  const grid = parts[0]!.percentiles.map(([p]) => p);
  const candidates = [
    ...new Set(parts.flatMap((run) => [...run.percentiles.map(([, v]) => v), run.maxMs])),
  ].sort((a, b) => a - b);
  const cumulative = (run: LatencyDistribution, value: number): number => {
    if (value >= run.maxMs) return 100;
    let reached = 0;
    for (const [p, v] of run.percentiles) if (v <= value) reached = Math.max(reached, p);
    return reached;
  };
  const percentiles = grid.map((percent): [number, number] => {
    const value = candidates.find(
      (v) => parts.reduce((sum, run) => sum + run.count * cumulative(run, v), 0) >= percent * count,
    );
    return [percent, value ?? candidates[candidates.length - 1]!];
  });
  return {
    count,
    meanMs: parts.reduce((sum, run) => sum + run.count * run.meanMs, 0) / count,
    maxMs: Math.max(...parts.map((run) => run.maxMs)),
    percentiles,
  };
}
