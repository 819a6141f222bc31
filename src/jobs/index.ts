import type { Job } from './scheduler.ts';
import { purgeExpiredJob } from './purge-expired.ts';
import { rebuildLeaderboardsJob } from './rebuild-leaderboards.ts';
import { buildSamplesJob } from './build-samples.ts';

/**
 * Every scheduled job, in the order a tick runs them: the purge first, so derived data is
 * never built from matches about to be deleted.
 */
export const JOBS: readonly Job[] = [purgeExpiredJob, rebuildLeaderboardsJob, buildSamplesJob];

export function findJob(name: string): Job | undefined {
  return JOBS.find((job) => job.name === name);
}
