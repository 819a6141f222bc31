/**
 * Sample lists: which windows exist and how matches are picked. A sample's time (its createdAt)
 * is the end of its window; windows are SAMPLES_INTERVAL_HOURS long and laid on a grid counted
 * from the epoch, so the default 24 h gives UTC days ending at midnight, as the real service's
 * samples do (and any divisor of 24 gives windows aligned to those midnights).
 */
import { randomInt } from 'node:crypto';
import { retentionCutoff } from './retention.ts';

export const HOUR_MS = 3_600_000;

/** Length of one sample window, in ms. */
export function samplePeriodMs(intervalHours: number): number {
  return intervalHours * HOUR_MS;
}

/** The sample time whose window holds `at` (epoch ms): windowStart ≤ at < sample time. */
export function sampleTimeCovering(at: number, periodMs: number): number {
  const intoWindow = ((at % periodMs) + periodMs) % periodMs;
  return at - intoWindow + periodMs;
}

/** The newest sample time at or before `now`: the end of the most recent closed window. */
export function latestSampleTime(now: number, periodMs: number): number {
  return sampleTimeCovering(now, periodMs) - periodMs;
}

/**
 * The oldest sample time inside the retention window at `now`: the sample covering the
 * retention cutoff, i.e. the oldest one a `filter[createdAt-start]` can still reach. Older
 * lists are purged with their matches. -Infinity when retention is off.
 */
export function earliestSampleTime(retentionDays: number, now: number, periodMs: number): number {
  const cutoff = retentionCutoff(retentionDays, now);
  return cutoff === -Infinity ? -Infinity : sampleTimeCovering(cutoff, periodMs);
}

/**
 * The range of sample times a store may hold lists for at `now`: from the window covering the
 * store's oldest match (no sample predates the data) or the retention cutoff, whichever is later,
 * up to the latest closed window. A store without matches (or with matches of the running window
 * only) gets the latest only. Which times in the range get lists is the samples job's business:
 * the latest always, older ones only where there are matches.
 */
export function sampleTimeRange(options: {
  now: number;
  periodMs: number;
  retentionDays: number;
  oldestMatchAt: number | null;
}): { first: number; latest: number } {
  const { now, periodMs, retentionDays, oldestMatchAt } = options;
  const latest = latestSampleTime(now, periodMs);
  const first =
    oldestMatchAt === null
      ? latest
      : Math.min(
          latest,
          Math.max(
            earliestSampleTime(retentionDays, now, periodMs),
            sampleTimeCovering(oldestMatchAt, periodMs),
          ),
        );
  return { first, latest };
}

/**
 * Up to `size` distinct items chosen uniformly at random, in random order (a partial
 * Fisher–Yates shuffle over a copy). `pick(n)` returns an integer in [0, n); the default draws
 * from the operating system's CSPRNG, so samples are not predictable from earlier ones.
 */
export function pickAtRandom<T>(
  items: readonly T[],
  size: number,
  pick: (n: number) => number = randomInt,
): T[] {
  const pool = [...items];
  const count = Math.min(size, pool.length);
  for (let i = 0; i < count; i++) {
    const j = i + pick(pool.length - i);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count);
}
