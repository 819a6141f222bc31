import type { Job, JobDeps } from './scheduler.ts';
import { retentionCutoff } from '../domain/retention.ts';
import {
  deleteEmptyTournaments,
  deleteExpiredSampleLists,
  deleteMatches,
  findExpiredMatches,
} from '../store/retention.ts';

/** Matches deleted per transaction: keeps each write short so readers and ingest are not held up. */
const BATCH_SIZE = 200;
/** Blob deletions in flight at once: an object store answers each in tens of ms, one by one would take seconds. */
const PARALLEL_DELETES = 8;

/**
 * Deletes match data older than the retention window in bounded batches: matches with their
 * participants, rosters, match-list entries, rendered documents and telemetry files, then
 * sample lists and tournaments left without matches. Season aggregates stay.
 */
export async function purgeExpired(
  deps: JobDeps,
): Promise<{ matches: number; sampleLists: number; tournaments: number }> {
  const { store, blobs, config, clock } = deps;
  const cutoff = retentionCutoff(config.retentionDays, clock.now());
  if (cutoff === -Infinity) return { matches: 0, sampleLists: 0, tournaments: 0 };
  let matches = 0;
  for (;;) {
    const batch = await findExpiredMatches(store.db, cutoff, BATCH_SIZE);
    if (batch.length === 0) break;
    // Files go before the rows: a failing blob store stops the purge with the rows (and so the
    // keys) still there for the next run, instead of leaving objects nothing refers to. Rows
    // left by a crash in between name deleted files of matches that are past the window and
    // answered 404 already; the next run deletes them (deleting an absent key is fine).
    const keys = batch.flatMap(({ telemetryKey }) => (telemetryKey ? [telemetryKey] : []));
    for (let i = 0; i < keys.length; i += PARALLEL_DELETES) {
      await Promise.all(keys.slice(i, i + PARALLEL_DELETES).map((key) => blobs.delete(key)));
    }
    await deleteMatches(
      store.db,
      batch.map((match) => match.id),
      clock.now(),
    );
    matches += batch.length;
  }
  const sampleLists = await deleteExpiredSampleLists(store.db, cutoff, clock.now());
  const tournaments = await deleteEmptyTournaments(store.db, clock.now());
  return { matches, sampleLists, tournaments };
}

export const purgeExpiredJob: Job = {
  name: 'retention',
  intervalMs: (config) => config.retentionIntervalMinutes * 60_000,
  // Nothing to produce: a purge is only due by its interval.
  outputMissing: async () => false,
  async run(deps) {
    const result = await purgeExpired(deps);
    return `deleted ${result.matches} matches, ${result.sampleLists} sample lists, ${result.tournaments} tournaments`;
  },
};
