import type { Job, JobDeps } from './scheduler.ts';
import { retentionCutoff } from '../domain/retention.ts';
import {
  deleteEmptyTournaments,
  deleteExpiredSampleLists,
  deleteMatches,
  findExpiredMatches,
} from '../store/retention.ts';
import { DOCUMENT_KINDS, withDocumentChanges } from '../store/document-changes.ts';

/** Matches deleted per transaction: keeps each write short so readers and ingest are not held up. */
const BATCH_SIZE = 200;
/** What a purge changes: every player's match list, tournaments and samples (coarse tags). */
const PURGED = [DOCUMENT_KINDS.players, DOCUMENT_KINDS.tournaments, DOCUMENT_KINDS.samples];
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
    // Player match lists, tournaments and samples lose the matches.
    await withDocumentChanges(store, PURGED, clock.now(), () =>
      deleteMatches(
        store.db,
        batch.map((match) => match.id),
      ),
    );
    matches += batch.length;
  }
  const sampleLists = await withDocumentChanges(store, PURGED, clock.now(), () =>
    deleteExpiredSampleLists(store.db, cutoff),
  );
  const tournaments = await withDocumentChanges(store, PURGED, clock.now(), () =>
    deleteEmptyTournaments(store.db),
  );
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
