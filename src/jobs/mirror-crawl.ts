/**
 * The crawl `serve` runs every MIRROR_INTERVAL_MINUTES when an upstream is configured (and
 * JOBS=on): one pass of `gamedata mirror` over the MIRROR_SHARDS samples, spending the budget of the mirror the routes use.
 * It runs on a scheduler of its own, so a long pass never delays the derived-data jobs or the
 * start of serving.
 */
import type { Job } from './scheduler.ts';
import { requestDerivedDataRebuild } from './index.ts';
import type { Mirror } from '../upstream/mirror.ts';
import { crawlUpstream, describeCrawl } from '../upstream/mirror-crawl.ts';

/** The crawl job of `mirror`. */
export function mirrorCrawlJob(mirror: Mirror): Job {
  return {
    name: 'mirror',
    intervalMs: (config) => config.mirrorIntervalMinutes * 60_000,
    outputMissing: async () => false,
    async run(deps) {
      const summary = await crawlUpstream(deps, mirror, { shards: deps.config.mirrorShards });
      // Samples and leaderboards derived from the matches are redone at their next tick.
      if (summary.matches.stored > 0) await requestDerivedDataRebuild(deps.store.db);
      return describeCrawl(summary, mirror);
    },
  };
}
