import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

/**
 * The change feed (src/store/changes.ts): one row per changed thing, numbered in commit order,
 * so that every instance sharing the database can drop what it cached about it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('changes')
    .addColumn('seq', 'bigint', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('changes_by_time').on('changes').column('at').execute();

  // The last seq handed out. Writers bump it under a row lock held until they commit, which
  // makes seq order commit order on both databases (no reader ever sees 7 before 6 commits).
  await db.schema
    .createTable('change_head')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('change_head').values({ id: 1, seq: 0 }).execute();
}
