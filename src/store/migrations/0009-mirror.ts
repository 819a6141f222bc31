import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

export async function up(db: Kysely<any>, _context: MigrationContext): Promise<void> {
  // Where the upstream crawler stands (per shard: the last sample it finished), so a restart
  // after a kill picks up from there.
  await db.schema
    .createTable('mirror_cursors')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Players the crawler keeps up to date from the upstream: their new matches are archived.
  await db.schema
    .createTable('mirror_watch')
    .addColumn('shard', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text')
    .addColumn('added_at', 'bigint', (c) => c.notNull())
    .addColumn('refreshed_at', 'bigint')
    .addPrimaryKeyConstraint('mirror_watch_pk', ['shard', 'name'])
    .execute();
}
