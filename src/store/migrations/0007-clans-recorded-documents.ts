import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

export async function up(db: Kysely<any>, { blobType }: MigrationContext): Promise<void> {
  // Clans of a platform; their members are the players whose clan_id names them.
  await db.schema
    .createTable('clans')
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tag', 'text', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('clans_pk', ['platform', 'id'])
    .execute();
  // Counts a clan's members, and finds them when membership changes.
  await db.schema
    .createIndex('players_by_clan')
    .on('players')
    .columns(['platform', 'clan_id'])
    .execute();

  // Documents of the real service served as recorded (ranked stats, clans; mastery can share it):
  // the bytes as given, and where their top-level links.self value lies, to be rewritten.
  await db.schema
    .createTable('recorded_documents')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('body', blobType, (c) => c.notNull())
    .addColumn('self_start', 'integer', (c) => c.notNull())
    .addColumn('self_end', 'integer', (c) => c.notNull())
    .addColumn('recorded_at', 'bigint', (c) => c.notNull())
    .addColumn('ingested_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('recorded_documents_pk', ['kind', 'platform', 'id'])
    .execute();
}
