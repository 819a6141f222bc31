import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

/**
 * SQLite: `weapon_mastery`, `weapon_medals` and `ranked_results` kept in one B-tree each, ordered
 * by their primary key (WITHOUT ROWID tables), where each was a rowid table with its key in an
 * index of its own. Their keys are most of their rows (all but the count of a medal row), every
 * read names a player (the key's first columns), and every write is an upsert by the key: the
 * index held the key a second time, and each write changed two B-trees. The bench's demo store,
 * as ingest builds it (`npm run bench -- --only none --jobs none --skip-ingest`, 2026-12-07):
 * the three tables 21.4 MB instead of 35.5 with their indexes, 14.4 KB a match instead of 24.0;
 * every table 74.6 KB a match instead of 84.2.
 *
 * Each table's definition is taken as it stands, with only its name changed and WITHOUT ROWID
 * added, and its rows are copied once, in key order through the old key's index, so nothing is
 * sorted: 0.3–0.5 s for the demo store's 140,000 rows. A million-player store has no more of them
 * than its demo: the twins copy none.
 *
 * Left as they were: `survival_mastery`, whose rows are larger than a B-tree of rows keeps well
 * (SQLite advises WITHOUT ROWID for rows under a twentieth of a page), and `season_stats`, whose
 * leaderboard index would then point at its rows by their whole key instead of a rowid.
 * PostgreSQL keeps its layout: there a table is never clustered by its key.
 */
export async function up(db: Kysely<any>, context: MigrationContext): Promise<void> {
  if (context.dialect !== 'sqlite') return;
  await keepOnce(db, 'weapon_mastery', ['platform', 'account_id', 'weapon_id', 'kind']);
  await keepOnce(db, 'weapon_medals', ['platform', 'account_id', 'weapon_id', 'medal_id']);
  await keepOnce(db, 'ranked_results', [
    'platform',
    'account_id',
    'season_id',
    'game_mode',
    'created_at',
    'match_id',
  ]);
}

/** Rebuilds `table` (which has no index but its key's) as a WITHOUT ROWID table of its key. */
async function keepOnce(db: Kysely<any>, table: string, key: string[]): Promise<void> {
  const { rows } = await sql<{ sql: string }>`SELECT sql FROM sqlite_master
    WHERE type = 'table' AND name = ${table}`.execute(db);
  const definition = rows[0]?.sql ?? '';
  const head = new RegExp(`^CREATE TABLE "?${table}"? \\(`, 'i');
  if (!head.test(definition)) throw new Error(`unexpected definition of ${table}: ${definition}`);
  const copy = `${table}_once`;
  await sql
    .raw(`${definition.replace(head, `CREATE TABLE "${copy}" (`)} WITHOUT ROWID`)
    .execute(db);
  const order = key.map((column) => `"${column}"`).join(', ');
  await sql.raw(`INSERT INTO "${copy}" SELECT * FROM "${table}" ORDER BY ${order}`).execute(db);
  await db.schema.dropTable(table).execute();
  await sql.raw(`ALTER TABLE "${copy}" RENAME TO "${table}"`).execute(db);
}
