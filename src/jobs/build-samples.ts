import crypto from 'node:crypto';
import type { Job, JobDeps } from './scheduler.ts';
import { REGIONS } from '../domain/shards.ts';
import { retentionCutoff } from '../domain/retention.ts';
import { dueSampleTimes, pickAtRandom, samplePeriodMs } from '../domain/samples.ts';
import { fillEmptySampleList, insertSampleList } from '../store/sample-writes.ts';
import {
  findFillableSampleLists,
  listMatchIdsInWindow,
  listSampleListsBetween,
  oldestMatchTime,
  type SampleList,
} from '../store/samples.ts';

/** What a run has to do: lists to create, and empty lists whose window has gained matches. */
interface SamplePlan {
  missing: Array<{ region: string; createdAt: number; windowStart: number }>;
  fillable: SampleList[];
  /** Matches created before this (epoch ms) are past retention and never picked. */
  since: number;
}

async function planSamples(deps: JobDeps): Promise<SamplePlan> {
  const { store, config, clock } = deps;
  const now = clock.now();
  const periodMs = samplePeriodMs(config.samplesIntervalHours);
  const times = dueSampleTimes({
    now,
    periodMs,
    retentionDays: config.retentionDays,
    oldestMatchAt: await oldestMatchTime(store.db),
  });
  const first = times[0]!;
  const latest = times[times.length - 1]!;
  const since = retentionCutoff(config.retentionDays, now);
  const existing = new Set(
    (await listSampleListsBetween(store.db, first, latest)).map(
      (l) => `${l.region}@${l.createdAt}`,
    ),
  );
  const missing: SamplePlan['missing'] = [];
  for (const createdAt of times) {
    for (const region of REGIONS) {
      if (!existing.has(`${region}@${createdAt}`)) {
        missing.push({ region, createdAt, windowStart: createdAt - periodMs });
      }
    }
  }
  const fillable = await findFillableSampleLists(store.db, first, latest, since);
  return { missing, fillable, since };
}

/** Up to SAMPLE_SIZE matches of the region's window still inside retention, picked at random. */
async function pickMatches(
  deps: JobDeps,
  list: { region: string; createdAt: number; windowStart: number },
  since: number,
): Promise<string[]> {
  const from = Math.max(list.windowStart, since);
  const ids = await listMatchIdsInWindow(deps.store.db, list.region, from, list.createdAt);
  return pickAtRandom(ids, deps.config.sampleSize);
}

/**
 * Builds the sample lists that are missing: for every platform-region and every window of
 * SAMPLES_INTERVAL_HOURS (UTC days by default) that closed inside the retention window, a list
 * of up to SAMPLE_SIZE of the region's matches of that window, picked at random — so a fresh
 * start has the latest list and the whole history at once. A window without matches gets an
 * empty list (the honest answer for a day a client expects a sample of), and an empty list is
 * filled when matches of its window arrive later; a list with entries is never redrawn. Each
 * list is written in its own transaction; a run with nothing missing writes nothing.
 */
export async function buildSamples(
  deps: JobDeps,
): Promise<{ built: number; filled: number; matches: number }> {
  const plan = await planSamples(deps);
  let matches = 0;
  for (const list of plan.missing) {
    const picked = await pickMatches(deps, list, plan.since);
    await insertSampleList(deps.store, { id: crypto.randomUUID(), ...list }, picked);
    matches += picked.length;
  }
  let filled = 0;
  for (const list of plan.fillable) {
    const picked = await pickMatches(deps, list, plan.since);
    if (picked.length > 0 && (await fillEmptySampleList(deps.store, list.id, picked))) {
      filled += 1;
      matches += picked.length;
    }
  }
  return { built: plan.missing.length, filled, matches };
}

export const buildSamplesJob: Job = {
  name: 'samples',
  intervalMs: (config) => samplePeriodMs(config.samplesIntervalHours),
  // Due at once when a window closed (just after midnight UTC by default) or matches arrived
  // for a window whose list is empty: three small indexed queries per scheduler tick.
  async outputMissing(deps) {
    const plan = await planSamples(deps);
    return plan.missing.length > 0 || plan.fillable.length > 0;
  },
  async run(deps) {
    const result = await buildSamples(deps);
    return `built ${result.built} sample lists, filled ${result.filled} empty ones, ${result.matches} matches listed`;
  },
};
