import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

/**
 * A player's match list was indexed twice by player: by its primary key (platform, account id,
 * match id) and by `player_matches_by_time` (platform, account id, created at). Both lead to the
 * same few rows — a player plays at most a few hundred matches in the retention window — so the
 * primary key alone finds them and the reads sort that handful by time. Dropping the second index
 * takes about a fifth off the table's size on disk (some 70 bytes of every row on SQLite) and
 * one index write off every row ingest adds.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('player_matches_by_time').ifExists().execute();
}
