/**
 * When the newest match counted by a player's season or lifetime stats was played: what a
 * recorded stats document is weighed against (recording-precedence.ts). One indexed query.
 */
import type { Db } from './store.ts';

/**
 * createdAt (epoch ms) of the player's newest non-custom match on the platform — of the season,
 * or of every season when `seasonId` is null (lifetime) — or null when none is held.
 */
export async function newestCountedMatchAt(
  db: Db,
  query: { platform: string; accountId: string; seasonId: string | null },
): Promise<number | null> {
  let select = db
    .selectFrom('player_matches')
    .select((eb) => eb.fn.max('created_at').as('newest'))
    .where('platform', '=', query.platform)
    .where('account_id', '=', query.accountId)
    .where('is_custom', '=', 0);
  if (query.seasonId !== null) select = select.where('season_id', '=', query.seasonId);
  const row = await select.executeTakeFirst();
  return row?.newest == null ? null : Number(row.newest);
}
