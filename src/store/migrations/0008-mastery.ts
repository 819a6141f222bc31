import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

/** The survival stats of this schema (each has a `_total`, `_best` and `_last` column). */
const SURVIVAL_STATS = [
  'air_drops_called',
  'damage_dealt',
  'damage_taken',
  'distance_by_swimming',
  'distance_by_vehicle',
  'distance_on_foot',
  'distance_total',
  'healed',
  'hot_drop_landings',
  'enemy_crates_looted',
  'unique_items_looted',
  'position',
  'revived',
  'teammates_revived',
  'time_survived',
  'throwables_thrown',
  'top10',
];

export async function up(db: Kysely<any>): Promise<void> {
  // Weapon mastery per player, weapon and kind of match (official, competitive, other).
  let weapons = db.schema
    .createTable('weapon_mastery')
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('weapon_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('xp', 'bigint', (c) => c.notNull());
  for (const column of ['kills', 'defeats', 'groggies', 'head_shots', 'long_range_defeats'])
    weapons = weapons.addColumn(column, 'integer', (c) => c.notNull());
  for (const column of ['damage_player', 'longest_defeat', 'longest_kill'])
    weapons = weapons.addColumn(column, 'double precision', (c) => c.notNull());
  for (const column of ['most_kills', 'most_defeats', 'most_groggies', 'most_head_shots'])
    weapons = weapons.addColumn(column, 'integer', (c) => c.notNull());
  await weapons
    .addColumn('most_damage_player', 'double precision', (c) => c.notNull())
    .addColumn('latest_match_id', 'text', (c) => c.notNull())
    .addColumn('latest_match_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('weapon_mastery_pk', ['platform', 'account_id', 'weapon_id', 'kind'])
    .execute();

  await db.schema
    .createTable('weapon_medals')
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('weapon_id', 'text', (c) => c.notNull())
    .addColumn('medal_id', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('weapon_medals_pk', [
      'platform',
      'account_id',
      'weapon_id',
      'medal_id',
    ])
    .execute();

  // Survival mastery per player: counters, the newest match, and total/best/last of every stat.
  let survival = db.schema
    .createTable('survival_mastery')
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('xp', 'bigint', (c) => c.notNull())
    .addColumn('matches_played', 'integer', (c) => c.notNull())
    .addColumn('telemetry_matches', 'integer', (c) => c.notNull())
    .addColumn('last_match_id', 'text', (c) => c.notNull())
    .addColumn('last_match_at', 'bigint', (c) => c.notNull());
  for (const stat of SURVIVAL_STATS)
    for (const part of ['total', 'best', 'last'])
      survival = survival.addColumn(`${stat}_${part}`, 'double precision', (c) => c.notNull());
  await survival
    .addPrimaryKeyConstraint('survival_mastery_pk', ['platform', 'account_id'])
    .execute();

  // Matches stored without telemetry, whose telemetry part of mastery is still to come.
  await db.schema
    .createTable('mastery_pending_telemetry')
    .addColumn('match_id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
