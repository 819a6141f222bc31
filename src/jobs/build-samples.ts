import crypto from 'node:crypto';
import type { Job, JobDeps } from './scheduler.ts';
import { REGIONS } from '../domain/shards.ts';
import { retentionCutoff } from '../domain/retention.ts';
import {
  pickAtRandom,
  samplePeriodMs,
  sampleTimeCovering,
  sampleTimeRange,
} from '../domain/samples.ts';
import { fillEmptySampleList, insertSampleList, redrawSampleList } from '../store/sample-writes.ts';
import { DOCUMENT_KINDS, withDocumentChanges } from '../store/document-changes.ts';
import {
  findFillableSampleLists,
  firstMatchTimeBetween,
  listMatchIdsInWindow,
  listSampleListsBetween,
  oldestMatchTime,
  type SampleList,
} from '../store/samples.ts';

/** What a run has to do: lists to create, and empty lists whose window has gained matches. */
interface SamplePlan {
  missing: Array<{ region: string; createdAt: number; windowStart: number }>;
  fillable: SampleList[];
  /** Every list of the range, for a rebuild. */
  lists: SampleList[];
  /** Matches created before this (epoch ms) are past retention and never picked. */
  since: number;
}

/**
 * The sample times in [first, latest] whose window holds a match created at or after `since`
 * and that have no list yet. One index seek finds the next match; a run of windows that already
 * have lists is skipped whole, so a run costs one seek per new window plus one per run of listed
 * ones — not one per day of an archive that reaches back years.
 */
async function unlistedTimesWithMatches(
  deps: JobDeps,
  range: { first: number; latest: number },
  listed: ReadonlySet<number>,
  since: number,
): Promise<number[]> {
  const periodMs = samplePeriodMs(deps.config.samplesIntervalHours);
  const found: number[] = [];
  let from = range.first - periodMs;
  while (from < range.latest) {
    const at = await firstMatchTimeBetween(deps.store.db, Math.max(from, since), range.latest);
    if (at === null) break;
    let time = sampleTimeCovering(at, periodMs);
    if (!listed.has(time)) found.push(time);
    while (listed.has(time + periodMs)) time += periodMs;
    from = time;
  }
  return found;
}

async function planSamples(deps: JobDeps): Promise<SamplePlan> {
  const { store, config, clock } = deps;
  const now = clock.now();
  const periodMs = samplePeriodMs(config.samplesIntervalHours);
  const range = sampleTimeRange({
    now,
    periodMs,
    retentionDays: config.retentionDays,
    oldestMatchAt: await oldestMatchTime(store.db),
  });
  const since = retentionCutoff(config.retentionDays, now);
  const lists = await listSampleListsBetween(store.db, range.first, range.latest);
  const existing = new Set(lists.map((l) => `${l.region}@${l.createdAt}`));
  const listed = new Set(lists.map((l) => l.createdAt));
  // The latest window always (the endpoint's newest answer, empty on a quiet day); older ones
  // only where some region has matches, each with a list for every region.
  const times = new Set([
    ...listed,
    ...(await unlistedTimesWithMatches(deps, range, listed, since)),
    range.latest,
  ]);
  const missing: SamplePlan['missing'] = [];
  for (const createdAt of [...times].sort((a, b) => a - b)) {
    for (const region of REGIONS) {
      if (!existing.has(`${region}@${createdAt}`)) {
        missing.push({ region, createdAt, windowStart: createdAt - periodMs });
      }
    }
  }
  const fillable = await findFillableSampleLists(store.db, range.first, range.latest, since);
  return { missing, fillable, lists, since };
}

/**
 * Up to SAMPLE_SIZE matches of the region's window still inside retention, picked at random,
 * and how many there were to pick from.
 */
async function pickMatches(
  deps: JobDeps,
  list: { region: string; createdAt: number; windowStart: number },
  since: number,
): Promise<{ picked: string[]; drawnFrom: number }> {
  const from = Math.max(list.windowStart, since);
  const ids = await listMatchIdsInWindow(deps.store.db, list.region, from, list.createdAt);
  return { picked: pickAtRandom(ids, deps.config.sampleSize), drawnFrom: ids.length };
}

export interface BuildSamplesResult {
  built: number;
  filled: number;
  /** Lists drawn again on a rebuild because their window gained matches since they were drawn. */
  redrawn: number;
  matches: number;
}

/**
 * Builds the sample lists that are missing: for every platform-region, for the latest window of
 * SAMPLES_INTERVAL_HOURS (UTC days by default) and for every older window inside the retention
 * window that holds matches, a list of up to SAMPLE_SIZE of the region's matches of that window,
 * picked at random — so a fresh start has the latest list and the whole history at once. A
 * region without matches in such a window gets an empty list (the honest answer for a day a
 * client expects a sample of); windows without any match get none, so an archive reaching back
 * years does not get a list per region and day. An empty list is filled when matches of its
 * window arrive later. A list with entries is drawn again only on a rebuild (after a bulk load
 * completes) and only if its window gained matches since it was drawn: a list drawn from half a
 * load does not stay half. Each list is written in its own transaction; a run with nothing to do
 * writes nothing.
 */
export async function buildSamples(
  deps: JobDeps,
  options: { rebuild: boolean } = { rebuild: false },
): Promise<BuildSamplesResult> {
  const plan = await planSamples(deps);
  // Each write tells the sample documents cached anywhere to go.
  const announced = <T>(write: () => Promise<T>): Promise<T> =>
    withDocumentChanges(deps.store.db, [DOCUMENT_KINDS.samples], deps.clock.now(), write);
  const result: BuildSamplesResult = { built: 0, filled: 0, redrawn: 0, matches: 0 };
  for (const list of plan.missing) {
    const { picked, drawnFrom } = await pickMatches(deps, list, plan.since);
    await announced(() =>
      insertSampleList(deps.store, { id: crypto.randomUUID(), ...list, drawnFrom }, picked),
    );
    result.built += 1;
    result.matches += picked.length;
  }
  for (const list of plan.fillable) {
    const { picked, drawnFrom } = await pickMatches(deps, list, plan.since);
    const fill = () => fillEmptySampleList(deps.store, list.id, picked, drawnFrom);
    if (picked.length > 0 && (await announced(fill))) {
      result.filled += 1;
      result.matches += picked.length;
    }
  }
  if (!options.rebuild) return result;
  const filled = new Set(plan.fillable.map((list) => list.id));
  for (const list of plan.lists) {
    if (list.drawnFrom === 0 || filled.has(list.id)) continue;
    const { picked, drawnFrom } = await pickMatches(deps, list, plan.since);
    if (drawnFrom > list.drawnFrom) {
      await announced(() => redrawSampleList(deps.store, list.id, picked, drawnFrom));
      result.redrawn += 1;
      result.matches += picked.length;
    }
  }
  return result;
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
  derivedFromMatches: true,
  async run(deps, options) {
    const result = await buildSamples(deps, options);
    return (
      `built ${result.built} sample lists, filled ${result.filled} empty ones, ` +
      `redrew ${result.redrawn}, ${result.matches} matches listed`
    );
  },
};
