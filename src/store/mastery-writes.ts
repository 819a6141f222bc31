/**
 * Mastery writes, inside the ingest transaction: multi-row upserts that add one match to each
 * player's weapon and survival careers — sums added, maxima kept, the newest match's values kept
 * as the last ones, in SQL so concurrent ingests on PostgreSQL never lose an update. Rows are
 * written in key order so concurrent ingests lock them in the same order.
 */
import { sql, type RawBuilder } from 'kysely';
import { SURVIVAL_STATS, LOWEST_IS_BEST } from '../domain/survival-mastery.ts';
import { executeBatched } from './batched-statements.ts';
import {
  survivalStatColumn,
  type MasteryPendingTelemetryTable,
  type SurvivalMasteryTable,
  type WeaponMasteryTable,
  type WeaponMedalsTable,
} from './mastery-tables.ts';
import type { Db, Store } from './store.ts';

/** What one match adds to mastery. */
export interface MatchMasteryRows {
  weapons: WeaponMasteryTable[];
  medals: WeaponMedalsTable[];
  survival: SurvivalMasteryTable[];
  /** Set when the match came without telemetry: its telemetry part is still due. */
  pending: MasteryPendingTelemetryTable | null;
}

type Expression = RawBuilder<unknown>;

/** Largest chunk of one statement (a power of two; 256 survival rows stay under the parameter limit). */
const MAX_CHUNK = 256;

/**
 * executeBatched in chunks whose sizes are powers of two (150 rows: 128, 16, 4, 2). The number
 * of rows a match adds varies widely, and every distinct count is a statement to build and
 * prepare; this way each upsert has at most nine shapes, all prepared once and kept.
 */
async function executeInShapes<R extends object>(
  db: Db,
  dialect: string,
  name: string,
  rows: readonly R[],
  build: Parameters<typeof executeBatched<R>>[4],
): Promise<void> {
  for (let start = 0; start < rows.length;) {
    const size = 2 ** Math.floor(Math.log2(Math.min(rows.length - start, MAX_CHUNK)));
    await executeBatched(db, dialect, name, rows.slice(start, start + size), build);
    start += size;
  }
}
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/*
 * Row orders (key order, see ingest-writes.ts) as module-level comparators: V8 keeps a closure's
 * optimized code only while a closure made from it is alive, so comparators made anew for each
 * match were compiled again after every full collection.
 */
const byAccountRow = (a: SurvivalMasteryTable, b: SurvivalMasteryTable): number =>
  compare(a.platform, b.platform) || compare(a.account_id, b.account_id);
const byWeaponRow = (a: WeaponMasteryTable, b: WeaponMasteryTable): number =>
  compare(a.platform, b.platform) ||
  compare(a.account_id, b.account_id) ||
  compare(a.weapon_id, b.weapon_id) ||
  compare(a.kind, b.kind);
const byMedalRow = (a: WeaponMedalsTable, b: WeaponMedalsTable): number =>
  compare(a.platform, b.platform) ||
  compare(a.account_id, b.account_id) ||
  compare(a.weapon_id, b.weapon_id) ||
  compare(a.medal_id, b.medal_id);

/** Adds a newly ingested match (participant part, and telemetry part when it had telemetry). */
export async function writeMatchMastery(
  db: Db,
  store: Store,
  rows: MatchMasteryRows,
): Promise<void> {
  if (rows.pending) {
    await db
      .insertInto('mastery_pending_telemetry')
      .values(rows.pending)
      .onConflict((oc) => oc.column('match_id').doNothing())
      .execute();
  }
  await addWeapons(db, store, rows);
  await addSurvival(db, store, rows.survival, 'match');
}

/** Adds the telemetry part of a match whose telemetry came after the match. */
export async function writeTelemetryMastery(
  db: Db,
  store: Store,
  rows: MatchMasteryRows,
): Promise<void> {
  await addWeapons(db, store, rows);
  await addSurvival(db, store, rows.survival, 'telemetry');
}

/**
 * Takes a match's pending mark: true exactly once for a match ingested without telemetry (the
 * caller then adds the telemetry part in the same transaction), false otherwise.
 */
export async function takePendingTelemetry(db: Db, matchId: string): Promise<boolean> {
  const taken = await db
    .deleteFrom('mastery_pending_telemetry')
    .where('match_id', '=', matchId)
    .returning('match_id')
    .executeTakeFirst();
  return taken !== undefined;
}

const old = (table: string, column: string): Expression => sql.ref(`${table}.${column}`);
const added = (column: string): Expression => sql.ref(`excluded.${column}`);
const sum = (table: string, column: string): Expression =>
  sql`${old(table, column)} + ${added(column)}`;
/** The excluded value when its match is at least as new as the stored one, else the stored. */
const ifNewer = (table: string, at: string, column: string): Expression =>
  sql`CASE WHEN ${added(at)} >= ${old(table, at)} THEN ${added(column)} ELSE ${old(table, column)} END`;

const WEAPON_SUMS = [
  'xp',
  'kills',
  'defeats',
  'groggies',
  'head_shots',
  'damage_player',
  'long_range_defeats',
] as const;
const WEAPON_MAXIMA = [
  'longest_defeat',
  'longest_kill',
  'most_kills',
  'most_defeats',
  'most_groggies',
  'most_head_shots',
  'most_damage_player',
] as const;

async function addWeapons(db: Db, store: Store, rows: MatchMasteryRows): Promise<void> {
  const t = 'weapon_mastery';
  const weapons = [...rows.weapons].sort(byWeaponRow);
  await executeInShapes(db, store.dialect, t, weapons, (chunk) =>
    db
      .insertInto(t)
      .values(chunk)
      .onConflict((oc) =>
        oc
          .columns(['platform', 'account_id', 'weapon_id', 'kind'])
          .doUpdateSet(weaponUpdate(store)),
      ),
  );

  const medals = [...rows.medals].sort(byMedalRow);
  await executeInShapes(db, store.dialect, 'weapon_medals', medals, (chunk) =>
    db
      .insertInto('weapon_medals')
      .values(chunk)
      .onConflict((oc) =>
        oc
          .columns(['platform', 'account_id', 'weapon_id', 'medal_id'])
          .doUpdateSet({ count: sql<number>`weapon_medals.count + excluded.count` }),
      ),
  );
}

/**
 * The survival upsert. A whole match (`match`) adds to every column; a late telemetry part
 * (`telemetry`) only to the telemetry stats, XP and the telemetry match count, leaving the
 * participant values and the newest match as they are.
 */
async function addSurvival(
  db: Db,
  store: Store,
  rows: readonly SurvivalMasteryTable[],
  part: 'match' | 'telemetry',
): Promise<void> {
  const t = 'survival_mastery';
  const sorted = [...rows].sort(byAccountRow);
  await executeInShapes(db, store.dialect, `${t}:${part}`, sorted, (chunk) =>
    db
      .insertInto(t)
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['platform', 'account_id']).doUpdateSet(survivalUpdate(store, part)),
      ),
  );
}

/**
 * The SET list of the weapon upsert (`weapon_mastery.x` the stored row, `excluded.x` the
 * match). Built only when a statement shape is first prepared: references cost parsing.
 */
function weaponUpdate(store: Store): Record<string, Expression> {
  const t = 'weapon_mastery';
  const update: Record<string, Expression> = {};
  for (const column of WEAPON_SUMS) update[column] = sum(t, column);
  for (const column of WEAPON_MAXIMA)
    update[column] = store.greatest(old(t, column), added(column));
  update.latest_match_id = ifNewer(t, 'latest_match_at', 'latest_match_id');
  update.latest_match_at = store.greatest(old(t, 'latest_match_at'), added('latest_match_at'));
  return update;
}

/** The SET list of the survival upsert of a whole match or of a late telemetry part. */
function survivalUpdate(store: Store, part: 'match' | 'telemetry'): Record<string, Expression> {
  const t = 'survival_mastery';
  const update: Record<string, Expression> = {
    xp: sum(t, 'xp'),
    telemetry_matches: sum(t, 'telemetry_matches'),
  };
  if (part === 'match') {
    update.matches_played = sum(t, 'matches_played');
    update.last_match_id = ifNewer(t, 'last_match_at', 'last_match_id');
    update.last_match_at = store.greatest(old(t, 'last_match_at'), added('last_match_at'));
  }
  for (const { key, source } of SURVIVAL_STATS) {
    if (part === 'telemetry' && source !== 'telemetry') continue;
    const [total, best, last] = (['total', 'best', 'last'] as const).map((p) =>
      survivalStatColumn(key, p),
    ) as [string, string, string];
    update[total] = sum(t, total);
    update[best] =
      key === LOWEST_IS_BEST
        ? sql`CASE WHEN ${added(best)} > 0 AND (${old(t, best)} = 0 OR ${added(best)} < ${old(t, best)}) THEN ${added(best)} ELSE ${old(t, best)} END`
        : store.greatest(old(t, best), added(best));
    update[last] = ifNewer(t, 'last_match_at', last);
  }
  return update;
}
