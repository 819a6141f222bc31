import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

export async function up(db: Kysely<any>): Promise<void> {
  // What a key may do: 'read' (the API's endpoints) or 'ingest' (POST/PUT /ingest/…), never both.
  // Every key made before scopes existed was a read key.
  await db.schema
    .alterTable('api_keys')
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo('read'))
    .execute();
}
