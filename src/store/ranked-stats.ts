/**
 * Reads behind the ranked stats endpoint: the ranked states of one player and season, one
 * indexed query (the primary key's prefix).
 */
import type { RankedState } from '../domain/ranked-stats.ts';
import { stateOf } from './ranked-rows.ts';
import type { Db } from './store.ts';

/** The ranked state of each mode the player played in the season, keyed by game mode. */
export async function findRankedStats(
  db: Db,
  query: { platform: string; accountId: string; seasonId: string },
): Promise<Map<string, RankedState>> {
  const rows = await db
    .selectFrom('ranked_stats')
    .selectAll()
    .where('platform', '=', query.platform)
    .where('account_id', '=', query.accountId)
    .where('season_id', '=', query.seasonId)
    .execute();
  const byMode = new Map<string, RankedState>();
  for (const row of rows) {
    const state = stateOf(row);
    if (state !== undefined) byMode.set(row.game_mode, state);
  }
  return byMode;
}
