/**
 * The per-platform season lists that the seasons and season stats endpoints read, kept in memory
 * with their rendered documents. The list changes about every two months (spec §3), so a list
 * is read from the store at most once an hour, and again as soon as the next season starts so
 * that `isCurrentSeason` moves on time.
 */
import type { Clock } from '../clock.ts';
import type { Platform } from '../domain/shards.ts';
import { seasonAt } from '../domain/seasons.ts';
import { listSeasons, type SeasonRow } from '../store/seasons.ts';
import type { Store } from '../store/store.ts';

/** How long a list read from the store is trusted, in ms: operators' edits show within this. */
const RELOAD_AFTER_MS = 3_600_000;
/** How long clients may cache a season list, in seconds (DESIGN §5: a day). */
const CLIENT_MAX_AGE_S = 86_400;

export interface PlatformSeasons {
  /** Oldest first. */
  seasons: readonly SeasonRow[];
  ids: ReadonlySet<string>;
  /** The season containing the instant the list was loaded; null before the first season. */
  current: SeasonRow | null;
  /** Start of the next season (epoch ms), when the table already holds it. */
  nextStartsAt: number | null;
  /** Rendered documents (bytes) by shard spelling, filled by the seasons endpoint. */
  documents: Map<string, Buffer>;
  loadedAt: number;
  validUntil: number;
}

export interface SeasonLists {
  get(platform: Platform): Promise<PlatformSeasons>;
  /** Seconds a client may cache the list read at `now`: a day, or less when a season starts sooner. */
  clientMaxAge(list: PlatformSeasons, now: number): number;
}

const listsByStore = new WeakMap<Store, SeasonLists>();

/** The season lists of a store: one cache per store, shared by every route that reads seasons. */
export function seasonListsFor(store: Store, clock: Clock): SeasonLists {
  let lists = listsByStore.get(store);
  if (!lists) listsByStore.set(store, (lists = createSeasonLists(store, clock)));
  return lists;
}

function createSeasonLists(store: Store, clock: Clock): SeasonLists {
  const cache = new Map<Platform, Promise<PlatformSeasons>>();

  async function load(platform: Platform, now: number): Promise<PlatformSeasons> {
    const seasons = await listSeasons(store.db, platform);
    let nextStartsAt: number | null = null;
    for (const season of seasons) {
      if (season.startsAt !== null && season.startsAt > now) {
        nextStartsAt = Math.min(nextStartsAt ?? Infinity, season.startsAt);
      }
    }
    return {
      seasons,
      ids: new Set(seasons.map((season) => season.id)),
      current: seasonAt(seasons, now),
      nextStartsAt,
      documents: new Map(),
      loadedAt: now,
      validUntil: Math.min(nextStartsAt ?? Infinity, now + RELOAD_AFTER_MS),
    };
  }

  return {
    async get(platform) {
      const now = clock.now();
      const cached = cache.get(platform);
      if (cached) {
        const list = await cached;
        if (list.loadedAt <= now && now < list.validUntil) return list;
        if (cache.get(platform) !== cached) return this.get(platform);
      }
      const loading = load(platform, now);
      cache.set(platform, loading);
      loading.catch(() => {
        if (cache.get(platform) === loading) cache.delete(platform);
      });
      return loading;
    },
    clientMaxAge(list, now) {
      const untilNext = list.nextStartsAt === null ? RELOAD_AFTER_MS : list.nextStartsAt - now;
      return Math.max(0, Math.min(CLIENT_MAX_AGE_S, Math.floor(untilNext / 1000)));
    },
  };
}
