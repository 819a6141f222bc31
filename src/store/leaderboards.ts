/**
 * Leaderboard builds: reading the candidates of a (platform, season, game mode) from the season
 * aggregates, replacing the build in one transaction, and reading the current build — its
 * header, a rank range of it, or one region's view of it.
 */
import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { PlayerAggregate, RankedPlayer } from '../domain/ranking.ts';
import { executeBatched } from './batched-statements.ts';
import { DOCUMENT_KINDS, announceDocumentChanges } from './document-changes.ts';
import type { LeaderboardEntriesTable } from './schema.ts';
import type { Db, Store } from './store.ts';

/** Which leaderboard: one per platform, season and standard game mode. */
export interface LeaderboardKey {
  platform: string;
  seasonId: string;
  gameMode: string;
}

/** A player's season aggregate with what the leaderboard shows of the player. */
export interface LeaderboardCandidate extends PlayerAggregate {
  name: string;
  /** Region shard of the player's newest match ('' when unknown). */
  region: string;
}

/**
 * The change tag of the leaderboard of one platform and mode, whatever its season: what a
 * rebuild announces, so pages rendered from the build it replaces are dropped everywhere.
 */
export const leaderboardTag = (platform: string, gameMode: string): string =>
  `${DOCUMENT_KINDS.leaderboards}\u0000${platform}\u0000${gameMode}`;

/** The current build of a leaderboard. */
export interface LeaderboardBuild {
  id: string;
  /** Epoch ms. */
  builtAt: number;
  /** Epoch ms at which the next rebuild is due. */
  expiresAt: number;
}

/** One stored entry, in the build's order. */
export interface LeaderboardEntry {
  /** Rank on the whole platform (or, in a regional view, in the region). */
  rank: number;
  accountId: string;
  name: string;
  region: string;
  rankPoints: number;
  games: number;
  wins: number;
  kills: number;
  damageDealt: number;
  winPlaceSum: number;
  tier: string;
  subTier: string;
}

/**
 * Replaces the leaderboard of the key's platform and mode — the previous build of any season —
 * with a new build of these entries, in one transaction, so readers see either the old build
 * or the new one, and announces its `leaderboardTag` with it. Returns the new build (a random
 * UUID id, as the real service's).
 */
export async function replaceLeaderboard(
  store: Store,
  key: LeaderboardKey,
  entries: readonly RankedPlayer<LeaderboardCandidate>[],
  times: { builtAt: number; expiresAt: number },
): Promise<LeaderboardBuild> {
  const build: LeaderboardBuild = { id: crypto.randomUUID(), ...times };
  const rows: Array<Selectable<LeaderboardEntriesTable>> = entries.map((entry) => ({
    leaderboard_id: build.id,
    rank: entry.rank,
    account_id: entry.player.accountId,
    name: entry.player.name,
    region: entry.player.region,
    rank_points: entry.rankPoints,
    games: entry.player.games,
    wins: entry.player.wins,
    kills: entry.player.kills,
    damage_dealt: entry.player.damageDealt,
    win_place_sum: entry.player.winPlaceSum,
    tier: entry.tier,
    sub_tier: entry.subTier,
  }));
  await store.db.transaction().execute(async (trx) => {
    const previous = await trx
      .selectFrom('leaderboards')
      .select('id')
      .where('platform', '=', key.platform)
      .where('game_mode', '=', key.gameMode)
      .execute();
    if (previous.length > 0) {
      const ids = previous.map((row) => row.id);
      await trx.deleteFrom('leaderboard_entries').where('leaderboard_id', 'in', ids).execute();
      await trx
        .deleteFrom('leaderboards')
        .where('platform', '=', key.platform)
        .where('game_mode', '=', key.gameMode)
        .execute();
    }
    await trx
      .insertInto('leaderboards')
      .values({
        platform: key.platform,
        season_id: key.seasonId,
        game_mode: key.gameMode,
        id: build.id,
        built_at: build.builtAt,
        expires_at: build.expiresAt,
      })
      .execute();
    await executeBatched(trx, store.dialect, 'leaderboard_entries', rows, (chunk) =>
      trx.insertInto('leaderboard_entries').values(chunk),
    );
    await announceDocumentChanges(trx, [leaderboardTag(key.platform, key.gameMode)], build.builtAt);
  });
  return build;
}

/** The current build of a leaderboard, or null when none was built (a primary key read). */
export async function findLeaderboard(
  db: Db,
  key: LeaderboardKey,
): Promise<LeaderboardBuild | null> {
  const row = await db
    .selectFrom('leaderboards')
    .select(['id', 'built_at', 'expires_at'])
    .where('platform', '=', key.platform)
    .where('season_id', '=', key.seasonId)
    .where('game_mode', '=', key.gameMode)
    .executeTakeFirst();
  return row
    ? { id: row.id, builtAt: Number(row.built_at), expiresAt: Number(row.expires_at) }
    : null;
}

/** The (platform, season, mode) of each stored build: what the rebuild job checks for gaps. */
export async function listLeaderboardKeys(
  db: Db,
  platforms: readonly string[],
): Promise<LeaderboardKey[]> {
  const rows = await db
    .selectFrom('leaderboards')
    .select(['platform', 'season_id', 'game_mode'])
    .where('platform', 'in', platforms)
    .execute();
  return rows.map((row) => ({
    platform: row.platform,
    seasonId: row.season_id,
    gameMode: row.game_mode,
  }));
}

/** Which entries of a build to read: a platform rank range, or the top of one region. */
export type EntrySelection =
  { fromRank: number; toRank: number } | { region: string; limit: number };

/**
 * Entries of build `id` of the leaderboard `key`, in rank order; a regional selection is
 * re-ranked 1..n within the region. Returns null when `id` is no longer the current build (a
 * rebuild replaced it since it was looked up). One statement: the build row by primary key,
 * left-joined to its entries by the entries' primary key, so the answer is one consistent snapshot.
 */
export async function listLeaderboardEntries(
  db: Db,
  key: LeaderboardKey,
  id: string,
  selection: EntrySelection,
): Promise<LeaderboardEntry[] | null> {
  let query = db
    .selectFrom('leaderboards as l')
    .leftJoin('leaderboard_entries as e', (join) => {
      const byBuild = join.onRef('e.leaderboard_id', '=', 'l.id');
      return 'region' in selection
        ? byBuild.on('e.region', '=', selection.region)
        : byBuild.on('e.rank', '>=', selection.fromRank).on('e.rank', '<=', selection.toRank);
    })
    .select([
      'e.rank',
      'e.account_id',
      'e.name',
      'e.region',
      'e.rank_points',
      'e.games',
      'e.wins',
      'e.kills',
      'e.damage_dealt',
      'e.win_place_sum',
      'e.tier',
      'e.sub_tier',
    ])
    .where('l.platform', '=', key.platform)
    .where('l.season_id', '=', key.seasonId)
    .where('l.game_mode', '=', key.gameMode)
    .where('l.id', '=', id)
    .orderBy('e.rank');
  if ('region' in selection) query = query.limit(selection.limit);
  const rows = await query.execute();
  if (rows.length === 0) return null;
  const entries: LeaderboardEntry[] = [];
  for (const row of rows) {
    // The one row of a build without entries in the selection has only nulls from the join.
    if (row.account_id === null) continue;
    entries.push({
      rank: 'region' in selection ? entries.length + 1 : Number(row.rank),
      accountId: row.account_id,
      name: row.name ?? '',
      region: row.region ?? '',
      rankPoints: Number(row.rank_points),
      games: Number(row.games),
      wins: Number(row.wins),
      kills: Number(row.kills),
      damageDealt: Number(row.damage_dealt),
      winPlaceSum: Number(row.win_place_sum),
      tier: row.tier ?? '',
      subTier: row.sub_tier ?? '',
    });
  }
  return entries;
}
