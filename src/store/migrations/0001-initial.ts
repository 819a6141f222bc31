import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

export async function up(db: Kysely<any>, { blobType }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('players')
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('ban_type', 'text', (c) => c.notNull().defaultTo('Innocent'))
    .addColumn('clan_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('players_pk', ['platform', 'account_id'])
    .execute();
  await db.schema
    .createIndex('players_by_name')
    .on('players')
    .columns(['platform', 'name', 'last_seen_at'])
    .execute();

  await db.schema
    .createTable('matches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('duration', 'integer', (c) => c.notNull())
    .addColumn('game_mode', 'text', (c) => c.notNull())
    .addColumn('map_name', 'text', (c) => c.notNull())
    .addColumn('match_type', 'text', (c) => c.notNull())
    .addColumn('is_custom', 'integer', (c) => c.notNull())
    .addColumn('season_state', 'text', (c) => c.notNull())
    .addColumn('season_id', 'text', (c) => c.notNull())
    .addColumn('title_id', 'text', (c) => c.notNull())
    .addColumn('tournament_id', 'text')
    .addColumn('asset_id', 'text', (c) => c.notNull())
    .addColumn('asset_created_at', 'bigint', (c) => c.notNull())
    .addColumn('telemetry_key', 'text')
    .addColumn('ingested_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('matches_by_region_time')
    .on('matches')
    .columns(['region', 'created_at'])
    .execute();
  await db.schema.createIndex('matches_by_time').on('matches').column('created_at').execute();
  await db.schema
    .createIndex('matches_by_tournament')
    .on('matches')
    .columns(['tournament_id', 'created_at'])
    .execute();
  await db.schema.createIndex('matches_by_asset').on('matches').column('asset_id').execute();

  await db.schema
    .createTable('rosters')
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'integer', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('won', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rosters_pk', ['match_id', 'id'])
    .execute();

  await db.schema
    .createTable('participants')
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('roster_id', 'text', (c) => c.notNull())
    .addColumn('player_id', 'text', (c) => c.notNull())
    .addColumn('shard', 'text', (c) => c.notNull())
    .addColumn('stats', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('participants_pk', ['match_id', 'id'])
    .execute();

  await db.schema
    .createTable('player_matches')
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('game_mode', 'text', (c) => c.notNull())
    .addColumn('season_id', 'text', (c) => c.notNull())
    .addColumn('is_custom', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('player_matches_pk', ['platform', 'account_id', 'match_id'])
    .execute();
  await db.schema
    .createIndex('player_matches_by_time')
    .on('player_matches')
    .columns(['platform', 'account_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('player_matches_by_match')
    .on('player_matches')
    .column('match_id')
    .execute();

  let seasonStats = db.schema
    .createTable('season_stats')
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('season_id', 'text', (c) => c.notNull())
    .addColumn('game_mode', 'text', (c) => c.notNull());
  for (const column of SEASON_STAT_INTEGERS) {
    seasonStats = seasonStats.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
  }
  for (const column of SEASON_STAT_REALS) {
    seasonStats = seasonStats.addColumn(column, 'double precision', (c) =>
      c.notNull().defaultTo(0),
    );
  }
  await seasonStats
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('season_stats_pk', [
      'platform',
      'account_id',
      'season_id',
      'game_mode',
    ])
    .execute();
  await db.schema
    .createIndex('season_stats_by_season_mode')
    .on('season_stats')
    .columns(['platform', 'season_id', 'game_mode'])
    .execute();

  await db.schema
    .createTable('stat_days')
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('season_id', 'text', (c) => c.notNull())
    .addColumn('game_mode', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('stat_days_pk', [
      'platform',
      'account_id',
      'season_id',
      'game_mode',
      'day',
    ])
    .execute();

  await db.schema
    .createTable('seasons')
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('starts_at', 'bigint')
    .addColumn('is_offseason', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('seasons_pk', ['platform', 'id'])
    .execute();

  await db.schema
    .createTable('tournaments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('rate_per_minute', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();

  await db.schema
    .createTable('match_documents')
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('body', blobType, (c) => c.notNull())
    .addColumn('body_gzip', blobType, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('match_documents_pk', ['match_id', 'variant'])
    .execute();
}

const SEASON_STAT_INTEGERS = [
  'assists',
  'boosts',
  'dbnos',
  'daily_kills',
  'daily_wins',
  'days',
  'headshot_kills',
  'heals',
  'kills',
  'losses',
  'max_kill_streaks',
  'revives',
  'road_kills',
  'round_most_kills',
  'rounds_played',
  'suicides',
  'team_kills',
  'top10s',
  'vehicle_destroys',
  'weapons_acquired',
  'weekly_kills',
  'weekly_wins',
  'wins',
  'win_place_sum',
  'last_day',
  'last_week',
];

const SEASON_STAT_REALS = [
  'damage_dealt',
  'longest_kill',
  'longest_time_survived',
  'ride_distance',
  'swim_distance',
  'time_survived',
  'walk_distance',
];
