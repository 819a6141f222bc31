/**
 * Reads of player records and their match lists. Every function is one indexed query, however
 * many players it is asked about.
 */
import type { Db } from './store.ts';

export interface Player {
  platform: string;
  accountId: string;
  name: string;
  banType: string;
  clanId: string;
  /** createdAt of the newest match that named the player, epoch ms. */
  lastSeenAt: number;
}

const COLUMNS = ['platform', 'account_id', 'name', 'ban_type', 'clan_id', 'last_seen_at'] as const;

type PlayerRow = {
  platform: string;
  account_id: string;
  name: string;
  ban_type: string;
  clan_id: string;
  last_seen_at: number;
};

const toPlayer = (row: PlayerRow): Player => ({
  platform: row.platform,
  accountId: row.account_id,
  name: row.name,
  banType: row.ban_type,
  clanId: row.clan_id,
  lastSeenAt: Number(row.last_seen_at),
});

/** One player of a platform by account id; null when unknown. */
export async function findPlayer(
  db: Db,
  platform: string,
  accountId: string,
): Promise<Player | null> {
  const row = await db
    .selectFrom('players')
    .select(COLUMNS)
    .where('platform', '=', platform)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ? toPlayer(row) : null;
}

/** The players of a platform with these account ids, keyed by id; unknown ids are absent. */
export async function findPlayersByIds(
  db: Db,
  platform: string,
  accountIds: readonly string[],
): Promise<Map<string, Player>> {
  const found = new Map<string, Player>();
  if (accountIds.length === 0) return found;
  const rows = await db
    .selectFrom('players')
    .select(COLUMNS)
    .where('platform', '=', platform)
    .where('account_id', 'in', accountIds)
    .execute();
  for (const row of rows) found.set(row.account_id, toPlayer(row));
  return found;
}

/**
 * The players of a platform currently named so (names are case-sensitive), keyed by name. When
 * two accounts carry the same name, the one seen most recently wins.
 */
export async function findPlayersByNames(
  db: Db,
  platform: string,
  names: readonly string[],
): Promise<Map<string, Player>> {
  const found = new Map<string, Player>();
  if (names.length === 0) return found;
  const rows = await db
    .selectFrom('players')
    .select(COLUMNS)
    .where('platform', '=', platform)
    .where('name', 'in', names)
    .orderBy('last_seen_at', 'desc')
    .orderBy('account_id')
    .execute();
  for (const row of rows) if (!found.has(row.name)) found.set(row.name, toPlayer(row));
  return found;
}

/**
 * The players a search names, by current name or by account id, in the order the values were
 * given; values matching no one are left out.
 */
export async function searchPlayers(
  db: Db,
  platform: string,
  search: { by: 'names' | 'ids'; values: readonly string[] },
): Promise<Player[]> {
  const found =
    search.by === 'names'
      ? await findPlayersByNames(db, platform, search.values)
      : await findPlayersByIds(db, platform, search.values);
  return search.values.flatMap((value) => found.get(value) ?? []);
}

/** The match lists of some players, and when the oldest match listed was created. */
export interface RecentMatchLists {
  /** Match ids newest first, keyed by account id; players without matches are absent. */
  lists: Map<string, string[]>;
  /** Epoch ms; null when no match is listed. */
  oldestAt: number | null;
}

/**
 * The ids of the matches of these players created at or after `since` (epoch ms; -Infinity for
 * no cut-off), newest first, keyed by account id.
 */
export async function listRecentMatchIds(
  db: Db,
  platform: string,
  accountIds: readonly string[],
  since: number,
): Promise<RecentMatchLists> {
  const lists = new Map<string, string[]>();
  let oldestAt: number | null = null;
  if (accountIds.length === 0) return { lists, oldestAt };
  let query = db
    .selectFrom('player_matches')
    .select(['account_id', 'match_id', 'created_at'])
    .where('platform', '=', platform)
    .where('account_id', 'in', accountIds);
  if (Number.isFinite(since)) query = query.where('created_at', '>=', since);
  const rows = await query
    .orderBy('account_id')
    .orderBy('created_at', 'desc')
    .orderBy('match_id', 'desc')
    .execute();
  for (const row of rows) {
    const list = lists.get(row.account_id);
    if (list) list.push(row.match_id);
    else lists.set(row.account_id, [row.match_id]);
    const createdAt = Number(row.created_at);
    if (oldestAt === null || createdAt < oldestAt) oldestAt = createdAt;
  }
  return { lists, oldestAt };
}
