/**
 * The writes of ingesting one match, in one transaction and a fixed number of statements however
 * many participants it has: multi-row inserts and upserts (see batched-statements.ts). Rows of
 * shared tables are written in key order so concurrent ingests on PostgreSQL lock them in the
 * same order and cannot deadlock.
 */
import { sql } from 'kysely';
import { executeBatched } from './batched-statements.ts';
import type {
  MatchDocumentsTable,
  MatchesTable,
  ParticipantsTable,
  PlayerMatchesTable,
  RostersTable,
} from './schema.ts';
import { addSeasonStats, type SeasonStatsAddition } from './season-stats-writes.ts';
import { applyRankedResults, type RankedAddition } from './ranked-writes.ts';
import { writeMatchMastery, type MatchMasteryRows } from './mastery-writes.ts';
import type { Db, Store } from './store.ts';
import { transactWithoutBlocking } from './sqlite/lock-wait.ts';
import { DOCUMENT_KINDS, announceDocumentChanges, sightingTags } from './document-changes.ts';

export type { SeasonStatsAddition };

/** A player named by a participant of the match, with the match's region and createdAt (epoch ms). */
export interface PlayerSighting {
  platform: string;
  accountId: string;
  name: string;
  region: string;
  seenAt: number;
}

/** Everything one ingested match writes, already derived. */
export interface IngestedMatchRows {
  match: MatchesTable;
  rosters: RostersTable[];
  participants: ParticipantsTable[];
  players: PlayerSighting[];
  playerMatches: PlayerMatchesTable[];
  seasonStats: SeasonStatsAddition[];
  /** Ranked results of the match's players (empty unless it is ranked play). */
  ranked: RankedAddition[];
  tournament: { id: string; createdAt: number } | null;
  /** The rendered canonical document, and the recorded one when the match came as one. */
  documents: MatchDocumentsTable[];
  /** What the match adds to weapon and survival mastery. */
  mastery: MatchMasteryRows;
  /** Epoch ms written as `updated_at` of changed aggregates. */
  now: number;
}

/**
 * Writes a match and everything derived from it in one transaction. Returns 'duplicate', having
 * changed nothing, when a match with the same id is already stored (checked atomically by the
 * match insert itself, so two concurrent ingests of one match cannot both write).
 */
export async function writeIngestedMatch(
  store: Store,
  rows: IngestedMatchRows,
): Promise<'ingested' | 'duplicate'> {
  const dialect = store.dialect;
  return transactWithoutBlocking(store, async (trx) => {
    // A batched statement of one row, for its SQL text built once rather than per match.
    const inserted = await executeBatched(trx, dialect, 'matches', [rows.match], (chunk) =>
      trx
        .insertInto('matches')
        .values(chunk)
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id'),
    );
    if (inserted.length === 0) return 'duplicate';

    await executeBatched(trx, dialect, 'rosters', rows.rosters, (chunk) =>
      trx.insertInto('rosters').values(chunk),
    );
    await executeBatched(trx, dialect, 'participants', rows.participants, (chunk) =>
      trx.insertInto('participants').values(chunk),
    );
    await upsertPlayers(trx, store, rows.players);
    const playerMatches = [...rows.playerMatches].sort(byAccountRow);
    await executeBatched(trx, dialect, 'player_matches', playerMatches, (chunk) =>
      trx.insertInto('player_matches').values(chunk),
    );
    await addSeasonStats(trx, store, rows.seasonStats, rows.now, rows.players);
    await applyRankedResults(trx, store, rows.ranked, rows.now);
    if (rows.tournament) await upsertTournament(trx, rows.tournament);
    await writeMatchMastery(trx, store, rows.mastery);
    await trx
      .insertInto('match_documents')
      .values(rows.documents)
      .onConflict((oc) => oc.columns(['match_id', 'variant']).doNothing())
      .execute();
    const tags = sightingTags(rows.players);
    if (rows.tournament) tags.push(DOCUMENT_KINDS.tournaments);
    await announceDocumentChanges(trx, tags, rows.now);
    return 'ingested';
  });
}

/** What ingest needs to know of a stored match to attach its telemetry. Times are epoch ms. */
export interface StoredMatch {
  id: string;
  platform: string;
  assetId: string;
  assetCreatedAt: number;
  /** Blob key of its telemetry file; null while the match has none. */
  telemetryKey: string | null;
}

/** The stored match with this id, or null. */
export async function findStoredMatch(db: Db, matchId: string): Promise<StoredMatch | null> {
  const row = await db
    .selectFrom('matches')
    .select(['id', 'platform', 'asset_id', 'asset_created_at', 'telemetry_key'])
    .where('id', '=', matchId)
    .executeTakeFirst();
  if (row === undefined) return null;
  return {
    id: row.id,
    platform: row.platform,
    assetId: row.asset_id,
    assetCreatedAt: row.asset_created_at,
    telemetryKey: row.telemetry_key,
  };
}

/**
 * Records `key` as the telemetry file of a match that has none. Returns false, changing nothing,
 * when the match has one (or is gone). Inside a transaction the claim holds the match's row
 * until commit, so a concurrent claim waits and then sees the file.
 */
export async function claimTelemetryKey(db: Db, matchId: string, key: string): Promise<boolean> {
  const result = await db
    .updateTable('matches')
    .set({ telemetry_key: key })
    .where('id', '=', matchId)
    .where('telemetry_key', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Players enter unbanned and clanless; matches never change either (clan and player status inputs do). */
const NEW_PLAYER_BAN_TYPE = 'Innocent';

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/*
 * Comparators at module level and loops rather than per-match callbacks: V8 keeps a closure's
 * optimized code only while a closure made from it is alive, so callbacks made anew for each
 * match were compiled again after every full collection.
 */
const byAccount = (a: PlayerSighting, b: PlayerSighting): number =>
  compare(a.platform, b.platform) || compare(a.accountId, b.accountId);
const byAccountRow = (a: PlayerMatchesTable, b: PlayerMatchesTable): number =>
  compare(a.platform, b.platform) || compare(a.account_id, b.account_id);

/**
 * Upserts the players a match names. The stored name and region are those of the newest match
 * by createdAt, so an older match ingested later leaves them alone; `last_seen_at` keeps the
 * maximum and `first_seen_at` the minimum.
 */
async function upsertPlayers(
  db: Db,
  store: Store,
  players: readonly PlayerSighting[],
): Promise<void> {
  const rows = [];
  for (const p of [...players].sort(byAccount)) {
    rows.push({
      platform: p.platform,
      account_id: p.accountId,
      name: p.name,
      region: p.region,
      ban_type: NEW_PLAYER_BAN_TYPE,
      clan_id: '',
      first_seen_at: p.seenAt,
      last_seen_at: p.seenAt,
    });
  }
  const newest = (column: 'name' | 'region') =>
    sql<string>`CASE WHEN excluded.last_seen_at >= players.last_seen_at THEN ${sql.ref(`excluded.${column}`)} ELSE ${sql.ref(`players.${column}`)} END`;
  await executeBatched(db, store.dialect, 'players', rows, (chunk) =>
    db
      .insertInto('players')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['platform', 'account_id']).doUpdateSet({
          name: newest('name'),
          region: newest('region'),
          last_seen_at: store.greatest(
            sql.ref<number>('players.last_seen_at'),
            sql.ref<number>('excluded.last_seen_at'),
          ),
          first_seen_at: sql<number>`CASE WHEN excluded.first_seen_at < players.first_seen_at THEN excluded.first_seen_at ELSE players.first_seen_at END`,
        }),
      ),
  );
}

/** Records a tournament; its createdAt is that of its earliest match. */
async function upsertTournament(
  db: Db,
  tournament: { id: string; createdAt: number },
): Promise<void> {
  await db
    .insertInto('tournaments')
    .values({ id: tournament.id, created_at: tournament.createdAt })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        created_at: sql<number>`CASE WHEN excluded.created_at < tournaments.created_at THEN excluded.created_at ELSE tournaments.created_at END`,
      }),
    )
    .execute();
}
