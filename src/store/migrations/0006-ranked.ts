import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

export async function up(db: Kysely<any>): Promise<void> {
  // Per player, platform, season and ranked mode: the rank points and counters of ranked play.
  await db.schema
    .createTable('ranked_stats')
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('season_id', 'text', (c) => c.notNull())
    .addColumn('game_mode', 'text', (c) => c.notNull())
    .addColumn('rank_points', 'integer', (c) => c.notNull())
    .addColumn('best_rank_points', 'integer', (c) => c.notNull())
    .addColumn('rounds_played', 'integer', (c) => c.notNull())
    .addColumn('wins', 'integer', (c) => c.notNull())
    .addColumn('top10s', 'integer', (c) => c.notNull())
    .addColumn('kills', 'integer', (c) => c.notNull())
    .addColumn('deaths', 'integer', (c) => c.notNull())
    .addColumn('assists', 'integer', (c) => c.notNull())
    .addColumn('dbnos', 'integer', (c) => c.notNull())
    .addColumn('damage_dealt', 'double precision', (c) => c.notNull())
    .addColumn('win_place_sum', 'integer', (c) => c.notNull())
    .addColumn('last_match_at', 'bigint', (c) => c.notNull())
    .addColumn('last_match_id', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ranked_stats_pk', [
      'platform',
      'account_id',
      'season_id',
      'game_mode',
    ])
    .execute();

  // Each ranked match of each player, kept beyond match retention: the sequence the rank points
  // are folded from again when a match arrives out of order.
  await db.schema
    .createTable('ranked_results')
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('season_id', 'text', (c) => c.notNull())
    .addColumn('game_mode', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('win_place', 'integer', (c) => c.notNull())
    .addColumn('won', 'integer', (c) => c.notNull())
    .addColumn('kills', 'integer', (c) => c.notNull())
    .addColumn('assists', 'integer', (c) => c.notNull())
    .addColumn('dbnos', 'integer', (c) => c.notNull())
    .addColumn('damage_dealt', 'double precision', (c) => c.notNull())
    .addColumn('died', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('ranked_results_pk', [
      'platform',
      'account_id',
      'season_id',
      'game_mode',
      'created_at',
      'match_id',
    ])
    .execute();
}
