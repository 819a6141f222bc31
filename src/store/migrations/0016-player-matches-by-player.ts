import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

/**
 * SQLite: `player_matches` kept in one B-tree ordered by player and time (a WITHOUT ROWID table
 * whose primary key is platform, account id, created at, match id), where it was a rowid table
 * with its primary key in an index of its own.
 *
 * - **A player's match list is one range read.** Every reader asks for a player's matches newest
 *   first. The rowid table found them through its key index, read each row from the table (a
 *   seek a match) and sorted them in a temporary B-tree; now they are read in the order served
 *   from the rows themselves. On the bench's demo store: 52 µs against 33 for one player's
 *   list (41 matches), 329 against 262 for ten players'.
 * - **One copy of the key.** The key index held platform, account id and match id of every row a
 *   second time (11 MB of the demo store's 32 MB for the table). The key now is the table.
 *   `player_matches_by_match`, which retention reads, then points at rows by their key instead
 *   of a rowid, which makes it larger. The bench's demo store, as ingest builds it: 28.1 MB
 *   with its indexes against 30.6 (18.9 KB a match against 20.6).
 * - **Unique as before, for rows that agree with their match.** Every writer takes the time
 *   from the match (ingest from the match it stores once, the twins of a million-player store
 *   from their template's row), and a match has one, so the key admits exactly the rows the
 *   old one did: one per player, platform and match. A row giving a match another time would
 *   no longer collide with it; nothing writes one.
 *
 * The rows are copied once, in one transaction: 0.34 s for the demo store's 105,874 rows, 55 s
 * for the 8.3 million of a million-player store (the process at 609 MB resident when it ran on
 * the store's connection; 74 s and 119 MB on the migrations' own, sqlite/dialect.ts). The old
 * table's pages stay in the file, free for what is written next: that store's file went from
 * 5.5 to 7.3 GB. `VACUUM` (sqlite3's, 61 s there, with the service stopped) gives them back:
 * 4.8 GB.
 *
 * PostgreSQL keeps its heap table and key index: there a table is never clustered by its key,
 * and the match list's reads already stop at the key index and a few heap pages.
 */
export async function up(db: Kysely<any>, context: MigrationContext): Promise<void> {
  if (context.dialect !== 'sqlite') return;
  // The index by match moves to the new table first and is filled row by row as it is: built
  // afterwards, it would sort every entry at once: some 800 MB at a million players, in memory
  // on the store's connection, where migrations ran then (its temporary b-trees are kept there;
  // those of the migrations' own connection, since, go to files).
  await db.schema.dropIndex('player_matches_by_match').execute();
  await sql`CREATE TABLE player_matches_by_player (
    platform text NOT NULL,
    account_id text NOT NULL,
    match_id text NOT NULL,
    created_at bigint NOT NULL,
    game_mode text NOT NULL,
    season_id text NOT NULL,
    is_custom integer NOT NULL,
    CONSTRAINT player_matches_pk PRIMARY KEY (platform, account_id, created_at, match_id)
  ) WITHOUT ROWID`.execute(db);
  await db.schema
    .createIndex('player_matches_by_match')
    .on('player_matches_by_player')
    .column('match_id')
    .execute();
  // By player, as the old key index reads them: each player's rows go in together, no sort.
  await sql`INSERT INTO player_matches_by_player
    (platform, account_id, match_id, created_at, game_mode, season_id, is_custom)
    SELECT platform, account_id, match_id, created_at, game_mode, season_id, is_custom
    FROM player_matches ORDER BY platform, account_id`.execute(db);
  await db.schema.dropTable('player_matches').execute();
  await sql`ALTER TABLE player_matches_by_player RENAME TO player_matches`.execute(db);
}
