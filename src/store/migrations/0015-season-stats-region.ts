import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

/**
 * The player's region beside each of their season aggregates (`season_stats.region`, always
 * the player's `players.region`, kept so by ingest: src/store/season-stats-writes.ts), and in
 * the leaderboard rebuild's covering index. A board's candidates are then read, pruned by their
 * region's bound and kept from the index alone: no join to players for each range of candidates
 * and no lookup of the region of each candidate above the floor (at a million players, most of
 * the rebuild's server time). The index replaces `season_stats_ranking`, its prefix.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('season_stats')
    .addColumn('region', 'text', (column) => column.notNull().defaultTo(''))
    .execute();
  await sql`UPDATE season_stats SET region = COALESCE((SELECT p.region FROM players p
    WHERE p.platform = season_stats.platform AND p.account_id = season_stats.account_id), '')`.execute(
    db,
  );
  await db.schema.dropIndex('season_stats_ranking').ifExists().execute();
  await db.schema
    .createIndex('season_stats_ranking_by_region')
    .ifNotExists()
    .on('season_stats')
    .columns([
      'platform',
      'season_id',
      'game_mode',
      'account_id',
      'rounds_played',
      'wins',
      'top10s',
      'kills',
      'damage_dealt',
      'win_place_sum',
      'region',
    ])
    .execute();
}
