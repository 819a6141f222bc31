/**
 * Clans and the player status members that point at them (`players.clan_id`, `players.ban_type`).
 * A clan's member count is never stored: it is counted from the players carrying its id, through
 * the `players_by_clan` index.
 */
import type { Db } from './store.ts';

export interface Clan {
  platform: string;
  id: string;
  name: string;
  tag: string;
  level: number;
  /** When a clan input, a recording or a member change last touched the clan, epoch ms. */
  updatedAt: number;
}

export interface ClanWithMembers extends Clan {
  memberCount: number;
}

/** A clan with its member count, in one query; null when the platform has no such clan. */
export async function findClan(
  db: Db,
  platform: string,
  clanId: string,
): Promise<ClanWithMembers | null> {
  const row = await db
    .selectFrom('clans')
    .select((eb) => [
      'clans.platform',
      'clans.id',
      'clans.name',
      'clans.tag',
      'clans.level',
      'clans.updated_at',
      eb
        .selectFrom('players')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .whereRef('players.platform', '=', 'clans.platform')
        .whereRef('players.clan_id', '=', 'clans.id')
        .as('member_count'),
    ])
    .where('clans.platform', '=', platform)
    .where('clans.id', '=', clanId)
    .executeTakeFirst();
  if (row === undefined) return null;
  return {
    platform: row.platform,
    id: row.id,
    name: row.name,
    tag: row.tag,
    level: Number(row.level),
    updatedAt: Number(row.updated_at),
    memberCount: Number(row.member_count ?? 0),
  };
}

/** Creates or replaces a clan's name, tag, level and `updated_at`. */
export async function upsertClan(db: Db, clan: Clan): Promise<void> {
  await db
    .insertInto('clans')
    .values({
      platform: clan.platform,
      id: clan.id,
      name: clan.name,
      tag: clan.tag,
      level: clan.level,
      updated_at: clan.updatedAt,
    })
    .onConflict((oc) =>
      oc.columns(['platform', 'id']).doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        tag: eb.ref('excluded.tag'),
        level: eb.ref('excluded.level'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

/** Marks clans as changed at `now` (their derived documents are then newer than a recording). */
export async function touchClans(
  db: Db,
  platform: string,
  clanIds: readonly string[],
  now: number,
): Promise<void> {
  const ids = clanIds.filter((id) => id !== '');
  if (ids.length === 0) return;
  await db
    .updateTable('clans')
    .set({ updated_at: now })
    .where('platform', '=', platform)
    .where('id', 'in', ids)
    .execute();
}

/** Account ids of a clan's members, sorted. */
export async function listClanMemberIds(
  db: Db,
  platform: string,
  clanId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('players')
    .select('account_id')
    .where('platform', '=', platform)
    .where('clan_id', '=', clanId)
    .orderBy('account_id')
    .execute();
  return rows.map((row) => row.account_id);
}

/** The status members of these players, keyed by account id; unknown players are absent. */
export async function findPlayerStatuses(
  db: Db,
  platform: string,
  accountIds: readonly string[],
): Promise<Map<string, { banType: string; clanId: string }>> {
  const found = new Map<string, { banType: string; clanId: string }>();
  if (accountIds.length === 0) return found;
  const rows = await db
    .selectFrom('players')
    .select(['account_id', 'ban_type', 'clan_id'])
    .where('platform', '=', platform)
    .where('account_id', 'in', accountIds)
    .execute();
  for (const row of rows) found.set(row.account_id, { banType: row.ban_type, clanId: row.clan_id });
  return found;
}

/**
 * Makes `memberIds` (stored players of the platform) exactly the clan's members: others who
 * carried its id are left clanless, the listed ones join it (leaving any other clan).
 */
export async function setClanMembers(
  db: Db,
  platform: string,
  clanId: string,
  memberIds: readonly string[],
): Promise<void> {
  let leaving = db
    .updateTable('players')
    .set({ clan_id: '' })
    .where('platform', '=', platform)
    .where('clan_id', '=', clanId);
  if (memberIds.length > 0) leaving = leaving.where('account_id', 'not in', memberIds);
  await leaving.execute();
  if (memberIds.length === 0) return;
  await db
    .updateTable('players')
    .set({ clan_id: clanId })
    .where('platform', '=', platform)
    .where('account_id', 'in', memberIds)
    .execute();
}

/** Sets a stored player's ban type and clan id. */
export async function setPlayerStatus(
  db: Db,
  platform: string,
  accountId: string,
  status: { banType: string; clanId: string },
): Promise<void> {
  await db
    .updateTable('players')
    .set({ ban_type: status.banType, clan_id: status.clanId })
    .where('platform', '=', platform)
    .where('account_id', '=', accountId)
    .execute();
}
