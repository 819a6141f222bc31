/**
 * The change feed's table: how a writer announces that something changed, so that every
 * process sharing the database can drop what it cached about it (src/store/change-feed.ts
 * reads the announcements and calls the subscribers).
 *
 * A change is a kind (`api_key`, and later `player`, `leaderboard` …) and a key (an id). Rows
 * are numbered 1, 2, 3 … in commit order: a writer takes its numbers from the `change_head`
 * row, whose lock it holds until it commits, so no reader ever sees number 7 before 6 has
 * committed, and a rolled-back announcement gives its numbers back. Rows are kept a few minutes
 * (`pruneChanges`); a reader that fell further behind notices the gap and starts over.
 */
import type { Db } from './store.ts';

export interface Change {
  seq: number;
  kind: string;
  key: string;
}

/** Rows per insert statement: far below either database's limit on bound parameters. */
const INSERT_CHUNK = 1_000;

/**
 * Announces that the things of `kind` named by `keys` changed. Call it in the transaction that
 * changes them, as its last statement: the announcement then commits (or rolls back) with the
 * change, and the head row's lock — which serializes announcing writers until they commit — is
 * held for as short as possible (taking other row locks after it invites deadlocks). Outside a
 * transaction it runs in one of its own. `at` is the time, epoch ms, that pruning goes by.
 */
export async function announceChanges(
  db: Db,
  kind: string,
  keys: readonly string[],
  at: number,
): Promise<void> {
  if (keys.length === 0) return;
  if (!db.isTransaction) {
    return db.transaction().execute((trx) => announceChanges(trx, kind, keys, at));
  }
  const head = await db
    .updateTable('change_head')
    .set((eb) => ({ seq: eb('seq', '+', keys.length) }))
    .where('id', '=', 1)
    .returning('seq')
    .executeTakeFirstOrThrow();
  const first = Number(head.seq) - keys.length + 1;
  for (let offset = 0; offset < keys.length; offset += INSERT_CHUNK) {
    const rows = keys
      .slice(offset, offset + INSERT_CHUNK)
      .map((key, index) => ({ seq: first + offset + index, kind, key, at }));
    await db.insertInto('changes').values(rows).execute();
  }
}

/** The last seq handed out (0 before any change): a new reader starts after it. */
export async function latestChangeSeq(db: Db): Promise<number> {
  const head = await db
    .selectFrom('change_head')
    .select('seq')
    .where('id', '=', 1)
    .executeTakeFirst();
  return Number(head?.seq ?? 0);
}

/** Up to `limit` committed changes after `seq`, oldest first. */
export async function changesAfter(db: Db, seq: number, limit: number): Promise<Change[]> {
  const rows = await db
    .selectFrom('changes')
    .select(['seq', 'kind', 'key'])
    .where('seq', '>', seq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ seq: Number(row.seq), kind: row.kind, key: row.key }));
}

/** Deletes changes announced before `before` (epoch ms); returns how many. */
export async function pruneChanges(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom('changes').where('at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
