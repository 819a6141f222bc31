import type { Job } from './scheduler.ts';
import type { Db } from '../store/store.ts';
import { requestJobRebuilds } from '../store/job-locks.ts';
import { purgeExpiredJob } from './purge-expired.ts';
import { rebuildLeaderboardsJob } from './rebuild-leaderboards.ts';
import { buildSamplesJob } from './build-samples.ts';
import { syncSeasonsJob } from './sync-seasons.ts';

/**
 * Every scheduled job, in the order a tick runs them: seasons first, so leaderboards are built
 * for the season that is current; the purge before the rest, so derived data is never built
 * from matches about to be deleted.
 */
export const JOBS: readonly Job[] = [
  syncSeasonsJob,
  purgeExpiredJob,
  rebuildLeaderboardsJob,
  buildSamplesJob,
];

export function findJob(name: string): Job | undefined {
  return JOBS.find((job) => job.name === name);
}

/**
 * Marks every job that derives its output from the stored matches (leaderboards, samples) for a
 * rebuild at its next tick. What a bulk load calls when it completes, so output built while the
 * load was under way — or after it was interrupted half-way — is redone from all of it.
 */
export async function requestDerivedDataRebuild(db: Db): Promise<void> {
  await requestJobRebuilds(
    db,
    JOBS.filter((job) => job.derivedFromMatches === true).map((job) => job.name),
  );
}
