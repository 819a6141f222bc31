/**
 * Reads behind season and lifetime stats: the per-mode aggregate rows maintained at ingest and
 * the per-mode lists of matches that count toward them. Each is one indexed query.
 */
import type { Selectable } from 'kysely';
import type { SeasonStatsTable } from './schema.ts';
import type { Db } from './store.ts';

export type SeasonStatsRow = Selectable<SeasonStatsTable>;

/**
 * The aggregate rows of these players for one season (or `lifetime`) and these game modes,
 * keyed by account id, then by game mode. Modes a player never played are absent.
 */
export async function findSeasonStatsRows(
  db: Db,
  query: {
    platform: string;
    accountIds: readonly string[];
    seasonId: string;
    gameModes: readonly string[];
  },
): Promise<Map<string, Map<string, SeasonStatsRow>>> {
  const byPlayer = new Map<string, Map<string, SeasonStatsRow>>();
  if (query.accountIds.length === 0 || query.gameModes.length === 0) return byPlayer;
  const rows = await db
    .selectFrom('season_stats')
    .selectAll()
    .where('platform', '=', query.platform)
    .where('account_id', 'in', query.accountIds)
    .where('season_id', '=', query.seasonId)
    .where('game_mode', 'in', query.gameModes)
    .execute();
  for (const row of rows) {
    let modes = byPlayer.get(row.account_id);
    if (!modes) byPlayer.set(row.account_id, (modes = new Map()));
    modes.set(row.game_mode, row);
  }
  return byPlayer;
}

export interface StatsMatchListQuery {
  platform: string;
  accountIds: readonly string[];
  gameModes: readonly string[];
  /** Only matches of this season; null for every season (lifetime). */
  seasonId: string | null;
  /** Only matches created at or after this instant, epoch ms; -Infinity for no bound. */
  since: number;
  /** At most this many matches per player and mode, the newest. */
  perMode: number;
}

/** The listed matches of some players by game mode, and when the oldest of them was created. */
export interface StatsMatchLists {
  /** Match ids by account id, then game mode, newest first. */
  byPlayer: Map<string, Map<string, string[]>>;
  /** Epoch ms; null when no match is listed. */
  oldestAt: number | null;
}

/**
 * The non-custom matches counted by stats, newest first, at most `perMode` per player and game
 * mode, keyed by account id, then by game mode. A window function keeps the cap in the database.
 */
export async function listStatsMatchIds(
  db: Db,
  query: StatsMatchListQuery,
): Promise<StatsMatchLists> {
  const byPlayer = new Map<string, Map<string, string[]>>();
  let oldestAt: number | null = null;
  if (query.accountIds.length === 0 || query.gameModes.length === 0) return { byPlayer, oldestAt };
  let candidates = db
    .selectFrom('player_matches')
    .select((eb) => [
      'account_id',
      'game_mode',
      'match_id',
      'created_at',
      eb.fn
        .agg<number>('row_number')
        .over((over) =>
          over
            .partitionBy(['account_id', 'game_mode'])
            .orderBy('created_at', 'desc')
            .orderBy('match_id', 'desc'),
        )
        .as('recency'),
    ])
    .where('platform', '=', query.platform)
    .where('account_id', 'in', query.accountIds)
    .where('game_mode', 'in', query.gameModes)
    .where('is_custom', '=', 0);
  if (query.seasonId !== null) candidates = candidates.where('season_id', '=', query.seasonId);
  if (Number.isFinite(query.since)) candidates = candidates.where('created_at', '>=', query.since);
  const rows = await db
    .selectFrom(candidates.as('candidates'))
    .select(['account_id', 'game_mode', 'match_id', 'created_at'])
    .where('recency', '<=', query.perMode)
    .orderBy('account_id')
    .orderBy('game_mode')
    .orderBy('recency')
    .execute();
  for (const row of rows) {
    let modes = byPlayer.get(row.account_id);
    if (!modes) byPlayer.set(row.account_id, (modes = new Map()));
    const list = modes.get(row.game_mode);
    if (list) list.push(row.match_id);
    else modes.set(row.game_mode, [row.match_id]);
    const createdAt = Number(row.created_at);
    if (oldestAt === null || createdAt < oldestAt) oldestAt = createdAt;
  }
  return { byPlayer, oldestAt };
}
