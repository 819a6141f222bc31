import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

export async function up(db: Kysely<any>): Promise<void> {
  // One row per job: the lease that keeps several instances from running it at once, and its history.
  await db.schema
    .createTable('job_locks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_started_at', 'bigint')
    .addColumn('last_finished_at', 'bigint')
    .addColumn('last_error', 'text')
    .execute();

  // A leaderboard build: the ranked entries of one platform, season and game mode.
  await db.schema
    .createTable('leaderboards')
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('season_id', 'text', (c) => c.notNull())
    .addColumn('game_mode', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('built_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('leaderboards_pk', ['platform', 'season_id', 'game_mode'])
    .execute();
  await db.schema
    .createTable('leaderboard_entries')
    .addColumn('leaderboard_id', 'text', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('rank_points', 'integer', (c) => c.notNull())
    .addColumn('games', 'integer', (c) => c.notNull())
    .addColumn('wins', 'integer', (c) => c.notNull())
    .addColumn('kills', 'integer', (c) => c.notNull())
    .addColumn('damage_dealt', 'double precision', (c) => c.notNull())
    .addColumn('win_place_sum', 'integer', (c) => c.notNull())
    .addColumn('tier', 'text', (c) => c.notNull())
    .addColumn('sub_tier', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('leaderboard_entries_pk', ['leaderboard_id', 'rank'])
    .execute();

  // A sample list: matches of one region picked at random from a 24-hour window.
  await db.schema
    .createTable('sample_lists')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    // Bumped whenever the list's matches change (a purge), so rendered copies know they are stale.
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('sample_lists_by_region_time')
    .on('sample_lists')
    .columns(['region', 'created_at'])
    .unique()
    .execute();
  await db.schema
    .createTable('sample_matches')
    .addColumn('sample_id', 'text', (c) => c.notNull())
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('sample_matches_pk', ['sample_id', 'match_id'])
    .execute();
  await db.schema
    .createIndex('sample_matches_by_match')
    .on('sample_matches')
    .column('match_id')
    .execute();

  // Each player's region: where their most recent match was played (regional leaderboards).
  await db.schema
    .alterTable('players')
    .addColumn('region', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}
