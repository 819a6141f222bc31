/**
 * Season and lifetime aggregates: the upsert that adds one match's increments, exactly as
 * `mergeSeasonStats` (src/domain/stats.ts) does in memory.
 */
import { sql, type Insertable, type RawBuilder } from 'kysely';
import {
  DAILY_STAT_COLUMNS,
  MAXED_STAT_COLUMNS,
  SUMMED_STAT_COLUMNS,
  WEEKLY_STAT_COLUMNS,
  type SeasonStatsIncrement,
} from '../domain/stats.ts';
import { executeBatched } from './batched-statements.ts';
import type { SeasonStatsTable } from './schema.ts';
import type { Db, Store } from './store.ts';

/** One participant's contribution to one aggregate (a season, or lifetime) of one mode. */
export interface SeasonStatsAddition {
  platform: string;
  accountId: string;
  seasonId: string;
  gameMode: string;
  increment: SeasonStatsIncrement;
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Module-level, as are the loops below rather than per-call callbacks: V8 keeps a closure's
 * optimized code only while a closure made from it is alive, so callbacks made anew for each
 * match were compiled again after every full collection (about one every 5 matches ingested).
 */
const byAggregate = (a: SeasonStatsAddition, b: SeasonStatsAddition): number =>
  compare(a.platform, b.platform) ||
  compare(a.accountId, b.accountId) ||
  compare(a.seasonId, b.seasonId) ||
  compare(a.gameMode, b.gameMode);

const aggregateKey = (a: {
  platform: string;
  account_id: string;
  season_id: string;
  game_mode: string;
}): string => `${a.platform}\u0000${a.account_id}\u0000${a.season_id}\u0000${a.game_mode}`;

/**
 * Adds the match's increments to `season_stats`. First the match days go into `stat_days`
 * (insert … on conflict do nothing returning): the rows it returns are exactly the aggregates
 * for which the day is new, whose `days` grow by one. Then one multi-row upsert adds sums, keeps
 * maxima and restarts or extends the daily and weekly columns — the SQL form of
 * `mergeSeasonStats` in src/domain/stats.ts. A new aggregate is stored with the match's region,
 * nearly always its player's (`players`, upserted before); the database keeps the copy equal
 * to `players.region` (triggers of migration 0015), so an existing aggregate's is left alone.
 */
export async function addSeasonStats(
  db: Db,
  store: Store,
  additions: readonly SeasonStatsAddition[],
  now: number,
  players: readonly PlayerRegion[],
): Promise<void> {
  if (additions.length === 0) return;
  const regions = new Map<string, string>();
  for (const p of players) regions.set(`${p.platform}\u0000${p.accountId}`, p.region);
  const sorted = [...additions].sort(byAggregate);

  const dayRows = [];
  for (const a of sorted) {
    dayRows.push({
      platform: a.platform,
      account_id: a.accountId,
      season_id: a.seasonId,
      game_mode: a.gameMode,
      day: a.increment.last_day,
    });
  }
  const inserted = await executeBatched(db, store.dialect, 'stat_days', dayRows, (chunk) =>
    db
      .insertInto('stat_days')
      .values(chunk)
      .onConflict((oc) => oc.doNothing())
      .returning(['platform', 'account_id', 'season_id', 'game_mode']),
  );
  const newDays = new Set<string>();
  for (const row of inserted) newDays.add(aggregateKey(row));

  const statRows: Array<Insertable<SeasonStatsTable>> = [];
  for (const a of sorted) {
    const row = {
      platform: a.platform,
      account_id: a.accountId,
      season_id: a.seasonId,
      game_mode: a.gameMode,
      ...a.increment,
      days: 0,
      updated_at: now,
      region: regions.get(`${a.platform}\u0000${a.accountId}`) ?? '',
    };
    row.days = newDays.has(aggregateKey(row)) ? 1 : 0;
    statRows.push(row);
  }
  // The SET list is built only with a statement that is not cached yet, as the rest of it.
  await executeBatched(db, store.dialect, 'season_stats', statRows, (chunk) =>
    db
      .insertInto('season_stats')
      .values(chunk)
      .onConflict((oc) =>
        oc
          .columns(['platform', 'account_id', 'season_id', 'game_mode'])
          .doUpdateSet(seasonStatsUpdate(store)),
      ),
  );
}

/** The SET list of the season stats upsert; `season_stats.x` is the stored row, `excluded.x` the match. */
function seasonStatsUpdate(store: Store): Record<string, RawBuilder<number>> {
  const old = (column: string): RawBuilder<number> =>
    sql.ref<number>(`season_stats.${column}`) as RawBuilder<number>;
  const added = (column: string): RawBuilder<number> =>
    sql.ref<number>(`excluded.${column}`) as RawBuilder<number>;
  const period = (marker: 'last_day' | 'last_week', column: string): RawBuilder<number> =>
    sql<number>`CASE WHEN ${added(marker)} > ${old(marker)} THEN ${added(column)} WHEN ${added(marker)} = ${old(marker)} THEN ${old(column)} + ${added(column)} ELSE ${old(column)} END`;

  const update: Record<string, RawBuilder<number>> = {};
  for (const column of [...SUMMED_STAT_COLUMNS, 'days'])
    update[column] = sql<number>`${old(column)} + ${added(column)}`;
  for (const column of MAXED_STAT_COLUMNS)
    update[column] = store.greatest(old(column), added(column));
  for (const column of DAILY_STAT_COLUMNS) update[column] = period('last_day', column);
  for (const column of WEEKLY_STAT_COLUMNS) update[column] = period('last_week', column);
  update.updated_at = added('updated_at');
  return update;
}

/** A player a match names, with the match's region. */
export interface PlayerRegion {
  platform: string;
  accountId: string;
  region: string;
}
