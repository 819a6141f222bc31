import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

/**
 * A covering index for ranking a leaderboard in the database (src/store/leaderboard-ranking.ts):
 * the aggregates of one platform, season and mode, in account id order, with every column the
 * score reads. The rebuild then reads the index alone, in the order of the players' primary key
 * it joins, instead of one random table row per candidate (at a million players, seconds
 * against tens of seconds). It replaces `season_stats_by_season_mode`, its prefix.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('season_stats_ranking')
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
    ])
    .execute();
  await db.schema.dropIndex('season_stats_by_season_mode').ifExists().execute();
}
