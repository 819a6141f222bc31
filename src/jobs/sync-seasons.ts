import type { Job } from './scheduler.ts';
import { PLATFORMS } from '../domain/shards.ts';
import { seasonCatalogue } from '../domain/seasons.ts';
import { listSeasons, syncSeasons } from '../store/seasons.ts';

const DAY_MS = 86_400_000;

/**
 * Adds seasons to the season lists as time reaches them (a new season every two months or so),
 * so a long-running server lists the next season before it starts even if no match arrives.
 */
export const syncSeasonsJob: Job = {
  name: 'seasons',
  intervalMs: () => DAY_MS,
  async outputMissing({ store, clock }) {
    for (const platform of PLATFORMS) {
      const known = new Set((await listSeasons(store.db, platform)).map((season) => season.id));
      if (seasonCatalogue(platform, clock.now()).some((season) => !known.has(season.id)))
        return true;
    }
    return false;
  },
  async run({ store, clock }) {
    const before = (await store.db.selectFrom('seasons').select('id').execute()).length;
    await syncSeasons(store, clock.now());
    const after = (await store.db.selectFrom('seasons').select('id').execute()).length;
    return `${after - before} seasons added`;
  },
};
