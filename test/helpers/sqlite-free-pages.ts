/**
 * The bytes of a SQLite store's free pages: what its next writes take before the file grows. A
 * new store has a few, left by the migrations that rebuild a table, so a test that waits for a
 * write to reach the file by its size waits for that much less.
 */
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: pragmas only
export async function freePageBytes(db: Kysely<any>): Promise<number> {
  const pages = await sql<{ freelist_count: number }>`pragma freelist_count`.execute(db);
  const size = await sql<{ page_size: number }>`pragma page_size`.execute(db);
  return pages.rows[0]!.freelist_count * size.rows[0]!.page_size;
}
