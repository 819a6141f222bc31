import type { Job } from './scheduler.ts';
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
