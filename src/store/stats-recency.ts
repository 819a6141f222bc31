/**
 * A recorded season or lifetime stats document weighed against what the store derives: it is
 * served while no match counted by those stats was played after it (recording-precedence.ts).
 */
import { recordingWins } from '../domain/recording-precedence.ts';
import { findRecordedDocument, type RecordedDocument } from './recorded-documents.ts';
import type { Db } from './store.ts';

/**
 * createdAt (epoch ms) of the newest non-custom match of these players on the platform — of the
 * season, or of every season when `seasonId` is null (lifetime) — or null when none is held.
 */
export async function newestCountedMatchAt(
  db: Db,
  query: { platform: string; accountIds: readonly string[]; seasonId: string | null },
): Promise<number | null> {
  if (query.accountIds.length === 0) return null;
  let select = db
    .selectFrom('player_matches')
    .select((eb) => eb.fn.max('created_at').as('newest'))
    .where('platform', '=', query.platform)
    .where('account_id', 'in', query.accountIds)
    .where('is_custom', '=', 0);
  if (query.seasonId !== null) select = select.where('season_id', '=', query.seasonId);
  const row = await select.executeTakeFirst();
  return row?.newest == null ? null : Number(row.newest);
}

/**
 * The `playerSeason` (or batch `playerSeasonList`) recording kept under `id` when it is to be
 * served rather than derived stats, else null. `listSeasonId`: the season whose matches count
 * (null for lifetime); `accountIds`: the players it holds.
 */
export async function findServedSeasonRecording(
  db: Db,
  query: {
    kind: 'playerSeason' | 'playerSeasonList';
    platform: string;
    accountIds: readonly string[];
    id: string;
    listSeasonId: string | null;
  },
): Promise<RecordedDocument | null> {
  const recording = await findRecordedDocument(db, query.kind, query.platform, query.id);
  if (recording === null) return null;
  const played = await newestCountedMatchAt(db, { ...query, seasonId: query.listSeasonId });
  return recordingWins(recording.recordedAt, played) ? recording : null;
}
