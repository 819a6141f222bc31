import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

/**
 * The player's region beside each of their season aggregates (`season_stats.region`, always
 * the player's `players.region`), and in the leaderboard rebuild's covering index. A board's
 * candidates are then read, pruned by their region's bound and kept from the index alone: no
 * join to players for each range of candidates and no lookup of the region of each candidate
 * above the floor (at a million players, most of the rebuild's server time). The index
 * replaces `season_stats_ranking`, its prefix.
 *
 * The database keeps the copy (see keepRegionCopied).
 *
 * On PostgreSQL the fill rewrites every aggregate and the index, built in the same transaction,
 * also holds the rows' old versions: after migrating a large store, VACUUM season_stats and
 * REINDEX the index to get the space back.
 */
export async function up(db: Kysely<any>, context: MigrationContext): Promise<void> {
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
  await keepRegionCopied(db, context.dialect);
}

/**
 * Two triggers keep `season_stats.region` equal to `players.region`, whoever writes either:
 * - a player whose region changes (their newest match's, whichever writer stores it) carries
 *   all their aggregates along;
 * - a new aggregate stored with another region than its player's (ingest stores the match's,
 *   which is not the player's when the match is older than their newest) takes the player's,
 *   '' without a player. An aggregate updated by a conflicting insert keeps its region.
 * Both are row triggers that fire only for rows actually inserted (not for an insert that
 * conflicts and updates instead), each one primary-key read of players: about 10 µs a new
 * aggregate on PostgreSQL. (A statement trigger joining its table of inserted rows to players
 * and season_stats cost about 1.5 ms a statement there, more than the copy it replaced.)
 */
async function keepRegionCopied(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const playerRegion = (row: string) =>
    `COALESCE((SELECT p.region FROM players p WHERE p.platform = ${row}.platform AND p.account_id = ${row}.account_id), '')`;
  if (dialect === 'sqlite') {
    await sql
      .raw(
        `CREATE TRIGGER players_region_to_season_stats
          AFTER UPDATE OF region ON players
          WHEN old.region IS NOT new.region
          BEGIN
            UPDATE season_stats SET region = new.region
              WHERE platform = new.platform AND account_id = new.account_id;
          END`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER season_stats_region_from_player
          AFTER INSERT ON season_stats
          WHEN new.region IS NOT ${playerRegion('new')}
          BEGIN
            UPDATE season_stats SET region = ${playerRegion('new')}
              WHERE platform = new.platform AND account_id = new.account_id
                AND season_id = new.season_id AND game_mode = new.game_mode;
          END`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `CREATE FUNCTION players_region_to_season_stats() RETURNS trigger
        LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
        BEGIN
          UPDATE season_stats SET region = NEW.region
            WHERE platform = NEW.platform AND account_id = NEW.account_id;
          RETURN NULL;
        END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER players_region_to_season_stats
        AFTER UPDATE OF region ON players
        FOR EACH ROW WHEN (OLD.region IS DISTINCT FROM NEW.region)
        EXECUTE FUNCTION players_region_to_season_stats()`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE FUNCTION season_stats_region_from_player() RETURNS trigger
        LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
        DECLARE
          player_region text := COALESCE((SELECT p.region FROM players p
            WHERE p.platform = NEW.platform AND p.account_id = NEW.account_id), '');
        BEGIN
          IF NEW.region IS DISTINCT FROM player_region THEN
            UPDATE season_stats SET region = player_region
              WHERE platform = NEW.platform AND account_id = NEW.account_id
                AND season_id = NEW.season_id AND game_mode = NEW.game_mode;
          END IF;
          RETURN NULL;
        END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER season_stats_region_from_player
        AFTER INSERT ON season_stats
        FOR EACH ROW EXECUTE FUNCTION season_stats_region_from_player()`,
    )
    .execute(db);
}
