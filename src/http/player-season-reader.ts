/**
 * What the season stats endpoints read before rendering: the season (or lifetime) a request
 * names, checked against the platform's season list and its shard rule, and the aggregates and
 * listed matches of the players asked for, one query each however many players.
 */
import type { RouteContext } from './route-context.ts';
import { retentionWindowMs } from '../config.ts';
import type { StandardGameMode } from '../domain/game-modes.ts';
import { FIRST_LIFETIME_SEASON, LIFETIME, seasonStatsShardRule } from '../domain/seasons.ts';
import { isPcPlatform, type ResolvedShard } from '../domain/shards.ts';
import { findSeasonStatsRows, listStatsMatchIds } from '../store/player-stats.ts';
import type { PlayerSeasonView } from '../presenters/season-stats-document.ts';
import { matchListing, type MatchListing } from './keyed-documents.ts';
import { notFound } from './jsonapi.ts';
import { seasonListsFor } from './season-lists.ts';
import { enforceShardRule } from './shards.ts';

/** Most match ids a season stats record lists per game mode (REFERENCE §1.7). */
const MATCHES_PER_MODE = 32;

/** Which stats a request reads: the aggregate rows' season, and the bounds of the match lists. */
export interface StatsScope {
  platform: string;
  /** A season id, or `lifetime`. */
  seasonId: string;
  /** Season of the listed matches; null for lifetime (every season since the first counted). */
  listSeasonId: string | null;
  /** Listed matches are created at or after this instant, epoch ms. */
  since: number;
}

/** The stats of the players asked for, and what the match lists make of their rendering. */
export interface PlayerSeasons {
  views: PlayerSeasonView[];
  /** What the oldest match listed makes of the rendering: its tag and its end. */
  listing: MatchListing;
}

/** The two reads of the season stats routes, bound to the app's store, clock and config. */
export function playerSeasonReader(context: Pick<RouteContext, 'config' | 'store' | 'clock'>): {
  statsScope: (shard: ResolvedShard, seasonId: string) => Promise<StatsScope>;
  playerSeasons: (
    scope: StatsScope,
    accountIds: readonly string[],
    gameModes: readonly StandardGameMode[],
  ) => Promise<PlayerSeasons>;
} {
  const { config, store, clock } = context;
  const seasonLists = seasonListsFor(store, clock);

  /** Checks the season and the shard kind it needs; throws 404 for an unknown season, 400 for a wrong shard. */
  async function statsScope(shard: ResolvedShard, seasonId: string): Promise<StatsScope> {
    const retentionStart = clock.now() - retentionWindowMs(config);
    const list = await seasonLists.get(shard.platform);
    if (seasonId === LIFETIME) {
      enforceShardRule(
        shard,
        { platform: true, region: false, pcOnly: true },
        'Lifetime stats',
        config,
      );
      const first = list.seasons.find((season) => season.id === FIRST_LIFETIME_SEASON.pc);
      const since = Math.max(retentionStart, first?.startsAt ?? -Infinity);
      return { platform: shard.platform, seasonId, listSeasonId: null, since };
    }
    if (!list.ids.has(seasonId))
      throw notFound(`Unknown season '${seasonId}' on shard '${shard.spelling}'`);
    const rule = seasonStatsShardRule(isPcPlatform(shard.platform), seasonId);
    enforceShardRule(shard, rule, `Season stats of ${seasonId}`, config);
    return { platform: shard.platform, seasonId, listSeasonId: seasonId, since: retentionStart };
  }

  /** The stats of these players in these modes: one query for the aggregates, one for the match lists. */
  async function playerSeasons(
    scope: StatsScope,
    accountIds: readonly string[],
    gameModes: readonly StandardGameMode[],
  ): Promise<PlayerSeasons> {
    const [stats, matches] = await Promise.all([
      findSeasonStatsRows(store.db, { ...scope, accountIds, gameModes }),
      listStatsMatchIds(store.db, {
        platform: scope.platform,
        accountIds,
        gameModes,
        seasonId: scope.listSeasonId,
        since: scope.since,
        perMode: MATCHES_PER_MODE,
      }),
    ]);
    const views = accountIds.map((accountId) => ({
      accountId,
      seasonId: scope.seasonId,
      gameModes,
      stats: stats.get(accountId),
      matches: matches.byPlayer.get(accountId),
    }));
    return { views, listing: matchListing(matches.oldestAt, retentionWindowMs(config)) };
  }

  return { statsScope, playerSeasons };
}
