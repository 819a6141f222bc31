/**
 * What the upstream crawler keeps in the store: its cursors (per shard, the last sample it
 * finished) and its watch list of players. Plain key-value rows, written one statement at a
 * time, so a crawl killed at any instant leaves them consistent.
 */
import type { Db } from './store.ts';

/** The cursor `name`'s value, or null when the crawler never set it. */
export async function readCursor(db: Db, name: string): Promise<string | null> {
  const row = await db
    .selectFrom('mirror_cursors')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.value ?? null;
}

/** Sets the cursor `name` (epoch ms `now`). */
export async function writeCursor(db: Db, name: string, value: string, now: number): Promise<void> {
  await db
    .insertInto('mirror_cursors')
    .values({ name, value, updated_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now }))
    .execute();
}

/**
 * Deletes the cursors named `prefix…` whose value starts with `valuePrefix` and that were last
 * written before `before` (epoch ms); returns how many. For lookups the upstream answered 404
 * to, kept only as long as that answer is trusted.
 */
export async function deleteCursorsBefore(
  db: Db,
  prefix: string,
  valuePrefix: string,
  before: number,
): Promise<number> {
  const result = await db
    .deleteFrom('mirror_cursors')
    .where('name', 'like', `${prefix}%`)
    .where('value', 'like', `${valuePrefix}%`)
    .where('updated_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A watched player: the shard as spelled to the upstream, and the name. Times epoch ms. */
export interface WatchedPlayer {
  shard: string;
  name: string;
  accountId: string | null;
  addedAt: number;
  refreshedAt: number | null;
}

/** Adds players to the watch list; returns how many were not on it yet. */
export async function watchPlayers(
  db: Db,
  shard: string,
  names: readonly string[],
  now: number,
): Promise<number> {
  let added = 0;
  for (const name of names) {
    const result = await db
      .insertInto('mirror_watch')
      .values({ shard, name, account_id: null, added_at: now, refreshed_at: null })
      .onConflict((oc) => oc.columns(['shard', 'name']).doNothing())
      .executeTakeFirst();
    added += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}

/** Removes players from the watch list; returns how many were on it. */
export async function unwatchPlayers(
  db: Db,
  shard: string,
  names: readonly string[],
): Promise<number> {
  if (names.length === 0) return 0;
  const result = await db
    .deleteFrom('mirror_watch')
    .where('shard', '=', shard)
    .where('name', 'in', names)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The watch list, least recently refreshed first (never refreshed before all). */
export async function listWatchedPlayers(db: Db): Promise<WatchedPlayer[]> {
  const rows = await db
    .selectFrom('mirror_watch')
    .selectAll()
    .orderBy('refreshed_at', (ob) => ob.asc().nullsFirst())
    .orderBy('shard')
    .orderBy('name')
    .execute();
  return rows.map((row) => ({
    shard: row.shard,
    name: row.name,
    accountId: row.account_id,
    addedAt: Number(row.added_at),
    refreshedAt: row.refreshed_at === null ? null : Number(row.refreshed_at),
  }));
}

/** Records a refresh of a watched player and the account id the upstream named. */
export async function markWatchedRefreshed(
  db: Db,
  player: Pick<WatchedPlayer, 'shard' | 'name'>,
  accountId: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('mirror_watch')
    .set({ account_id: accountId, refreshed_at: now })
    .where('shard', '=', player.shard)
    .where('name', '=', player.name)
    .execute();
}
