import type { Clock } from '../clock.ts';
import { seasonAt, seasonCatalogue } from '../domain/seasons.ts';
import type { Platform } from '../domain/shards.ts';
import { listSeasons, syncSeasons, type SeasonRow } from '../store/seasons.ts';
import type { Store } from '../store/store.ts';

/**
 * The season a match created at `createdAt` (epoch ms) belongs to on each of the given
 * platforms, from the stored season lists; null when one of them has no season that early.
 *
 * The lists are synced from the catalogue when empty, or when the match falls into the last
 * listed season while the catalogue knows a later one (the table is stale after a season
 * change) — never otherwise, so an operator's edits to the table stand.
 */
export async function resolveMatchSeasons(
  store: Store,
  platforms: readonly Platform[],
  createdAt: number,
  clock: Clock,
): Promise<Map<Platform, string> | null> {
  const seasons = new Map<Platform, string>();
  for (const platform of platforms) {
    let list = await listSeasons(store.db, platform);
    if (isStale(list, platform, createdAt, clock.now())) {
      await syncSeasons(store, clock.now());
      list = await listSeasons(store.db, platform);
    }
    const season = seasonAt(list, createdAt);
    if (season === null) return null;
    seasons.set(platform, season.id);
  }
  return seasons;
}

function isStale(
  list: readonly SeasonRow[],
  platform: Platform,
  createdAt: number,
  now: number,
): boolean {
  const last = list.at(-1);
  if (last === undefined) return true;
  if (last.startsAt === null || last.startsAt > createdAt) return false;
  const known = new Set(list.map((season) => season.id));
  return seasonCatalogue(platform, now).some((season) => !known.has(season.id));
}
