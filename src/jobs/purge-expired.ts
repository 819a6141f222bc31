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
    await deleteMatches(
      store.db,
      batch.map((match) => match.id),
    );
    // Blobs go after the rows: a crash in between leaves an unreferenced file, never a dangling row.
    for (const { telemetryKey } of batch) if (telemetryKey) await blobs.delete(telemetryKey);
    matches += batch.length;
  }
  const sampleLists = await deleteExpiredSampleLists(store.db, cutoff);
  const tournaments = await deleteEmptyTournaments(store.db);
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
