/**
 * Writing sample lists: the samples job's only writes, each list in one transaction.
 */
import { executeBatched } from './batched-statements.ts';
import type { SampleList } from './samples.ts';
import type { Db, Store } from './store.ts';

async function insertEntries(
  trx: Db,
  dialect: string,
  sampleId: string,
  matchIds: readonly string[],
): Promise<void> {
  const rows = matchIds.map((matchId, position) => ({
    sample_id: sampleId,
    match_id: matchId,
    position,
  }));
  await executeBatched(trx, dialect, 'sample_matches', rows, (chunk) =>
    trx.insertInto('sample_matches').values(chunk),
  );
}

/** Stores a new sample list with its matches, in the given order, in one transaction. */
export async function insertSampleList(
  store: Store,
  list: Omit<SampleList, 'revision'>,
  matchIds: readonly string[],
): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('sample_lists')
      .values({
        id: list.id,
        region: list.region,
        created_at: list.createdAt,
        window_start: list.windowStart,
        revision: 0,
        drawn_from: list.drawnFrom,
      })
      .execute();
    await insertEntries(trx, store.dialect, list.id, matchIds);
  });
}

/**
 * Gives a list that has no entries these matches and a new revision, in one transaction;
 * returns false (and changes nothing) when the list is gone or has entries by then.
 */
export async function fillEmptySampleList(
  store: Store,
  sampleId: string,
  matchIds: readonly string[],
  drawnFrom: number,
): Promise<boolean> {
  return store.db.transaction().execute(async (trx) => {
    const bumped = await trx
      .updateTable('sample_lists')
      .set((eb) => ({ revision: eb('revision', '+', 1), drawn_from: drawnFrom }))
      .where('id', '=', sampleId)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom('sample_matches').select('match_id').where('sample_id', '=', sampleId)),
        ),
      )
      .executeTakeFirst();
    if (Number(bumped.numUpdatedRows) !== 1) return false;
    await insertEntries(trx, store.dialect, sampleId, matchIds);
    return true;
  });
}

/**
 * Replaces a list's matches with a new draw and gives it a new revision, in one transaction
 * (a rebuild after a load, for a list drawn before the rest of its window arrived).
 */
export async function redrawSampleList(
  store: Store,
  sampleId: string,
  matchIds: readonly string[],
  drawnFrom: number,
): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sample_matches').where('sample_id', '=', sampleId).execute();
    await trx
      .updateTable('sample_lists')
      .set((eb) => ({ revision: eb('revision', '+', 1), drawn_from: drawnFrom }))
      .where('id', '=', sampleId)
      .execute();
    await insertEntries(trx, store.dialect, sampleId, matchIds);
  });
}
