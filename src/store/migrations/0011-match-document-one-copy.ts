import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

/**
 * A match document was kept twice, as its bytes and as their gzip (about half of a match's
 * rows on disk). Only the gzip stays: it is what nearly every client is sent, and the identity
 * bytes are its gunzip, made on demand (and kept in memory while hot). Every stored row already
 * has both, so dropping the identity column is the whole conversion. SQLite reuses the freed
 * pages; `VACUUM` returns them to the file system.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('match_documents').dropColumn('body').execute();
}
