import type { Db } from './store.ts';

import {
  DOCUMENT_KINDS,
  announceDocumentChanges,
  listedFromTag,
  sampleListTag,
} from './document-changes.ts';

/** The oldest matches created before `cutoff`, at most `limit`, with their telemetry blob keys. */
export async function findExpiredMatches(
  db: Db,
  cutoff: number,
  limit: number,
): Promise<Array<{ id: string; telemetryKey: string | null }>> {
  const rows = await db
    .selectFrom('matches')
    .select(['id', 'telemetry_key'])
    .where('created_at', '<', cutoff)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.id, telemetryKey: row.telemetry_key }));
}

/**
 * Deletes matches and everything that refers to them — rosters, participants, player match-list
 * entries, rendered documents, sample entries — in one transaction. Sample lists that lose
 * entries get a new revision, so rendered copies are rebuilt. Season aggregates and mastery
 * stay (a purged match's telemetry can no longer come, so its pending mark goes). Announces
 * the hours the matches were created in (`listedFromTag`), so readers render again only the
 * player and stats documents that still list one of them — none when the matches had left the
 * readers' window before the purge, as they have when it runs on time (matches are purged
 * oldest first, see listedFromTag) — the sample lists that lost entries (`sampleListTag`), and
 * `tournaments` when a tournament match is among them. `at` (epoch ms) only dates the
 * announcement for pruning.
 */
export async function deleteMatches(
  db: Db,
  ids: readonly string[],
  at = Date.now(),
): Promise<void> {
  if (ids.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const touchedSamples = await trx
      .selectFrom('sample_matches')
      .select('sample_id')
      .distinct()
      .where('match_id', 'in', ids)
      .execute();
    const created = await trx
      .selectFrom('matches')
      .select(['created_at', 'tournament_id'])
      .where('id', 'in', ids)
      .execute();
    for (const table of ['participants', 'rosters', 'match_documents'] as const) {
      await trx.deleteFrom(table).where('match_id', 'in', ids).execute();
    }
    await trx.deleteFrom('player_matches').where('match_id', 'in', ids).execute();
    await trx.deleteFrom('sample_matches').where('match_id', 'in', ids).execute();
    await trx.deleteFrom('mastery_pending_telemetry').where('match_id', 'in', ids).execute();
    await trx.deleteFrom('matches').where('id', 'in', ids).execute();
    if (touchedSamples.length > 0) {
      await trx
        .updateTable('sample_lists')
        .set((eb) => ({ revision: eb('revision', '+', 1) }))
        .where(
          'id',
          'in',
          touchedSamples.map((row) => row.sample_id),
        )
        .execute();
    }
    const tags = created.map((row) => listedFromTag(Number(row.created_at)));
    for (const row of touchedSamples) tags.push(sampleListTag(row.sample_id));
    if (created.some((row) => row.tournament_id !== null)) tags.push(DOCUMENT_KINDS.tournaments);
    await announceDocumentChanges(trx, tags, at);
  });
}

/**
 * Deletes sample lists created before `cutoff` with their entries; returns how many. Announces
 * each list deleted (`sampleListTag`): a sample document renders the lists it names, and a
 * list's deletion changes no other one (the latest list of a region, or the lists covering a
 * time, are the same among those left) — so every other sample, today's above all, stays cached.
 */
export async function deleteExpiredSampleLists(
  db: Db,
  cutoff: number,
  at = Date.now(),
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const expired = (
      await trx.selectFrom('sample_lists').select('id').where('created_at', '<', cutoff).execute()
    ).map((row) => row.id);
    if (expired.length === 0) return 0;
    await trx.deleteFrom('sample_matches').where('sample_id', 'in', expired).execute();
    await trx.deleteFrom('sample_lists').where('id', 'in', expired).execute();
    await announceDocumentChanges(trx, expired.map(sampleListTag), at);
    return expired.length;
  });
}

/**
 * Deletes tournaments none of whose matches remain; returns how many. Announces that
 * tournaments changed only when one was deleted: an hourly purge that deletes nothing makes no
 * reader render its tournaments again.
 */
export async function deleteEmptyTournaments(db: Db, at = Date.now()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const deleted = await deleteTournaments(trx);
    if (deleted > 0) await announceDocumentChanges(trx, [DOCUMENT_KINDS.tournaments], at);
    return deleted;
  });
}

async function deleteTournaments(db: Db): Promise<number> {
  const result = await db
    .deleteFrom('tournaments')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('matches')
            .select('matches.id')
            .whereRef('matches.tournament_id', '=', 'tournaments.id'),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
