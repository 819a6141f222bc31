/**
 * The ranked part of ingesting a match, inside the match's transaction: each player's result is
 * added to `ranked_results`, and their `ranked_stats` row becomes the fold of their results in
 * match order (src/domain/ranked-stats.ts) — one step on from the stored state for a match newer
 * than every one counted, the whole stored sequence folded again for one that is older.
 *
 * A fixed number of statements per match: insert the results; lock and read the players' rows
 * with an upsert that creates the missing ones (on PostgreSQL the row lock holds until commit, so
 * concurrent ingests of one player's matches apply one after the other); read the sequences of
 * the out-of-order players, if any; write the new states. Rows go in key order so that two
 * transactions lock them in the same order and cannot deadlock.
 */
import { sql } from 'kysely';
import {
  applyRankedResult,
  foldRankedResults,
  isAfter,
  type RankedResult,
  type RankedState,
} from '../domain/ranked-stats.ts';
import { executeBatched } from './batched-statements.ts';
import {
  resultOf,
  resultRow,
  stateColumns,
  stateOf,
  STATE_UPDATE,
  type RankedAddition,
} from './ranked-rows.ts';
import type { RankedStatsTable } from './schema.ts';
import type { Db, Store } from './store.ts';

export type { RankedAddition };

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const keyOf = (row: {
  platform: string;
  account_id: string;
  season_id: string;
  game_mode: string;
}): string => `${row.platform}\u0000${row.account_id}\u0000${row.season_id}\u0000${row.game_mode}`;

/** Adds a match's ranked results and brings each player's ranked stats up to date. */
export async function applyRankedResults(
  db: Db,
  store: Store,
  additions: readonly RankedAddition[],
  now: number,
): Promise<void> {
  if (additions.length === 0) return;
  const sorted = [...additions].sort(
    (a, b) =>
      compare(a.platform, b.platform) ||
      compare(a.accountId, b.accountId) ||
      compare(a.seasonId, b.seasonId) ||
      compare(a.gameMode, b.gameMode),
  );
  const keys = sorted.map((a) => ({
    platform: a.platform,
    account_id: a.accountId,
    season_id: a.seasonId,
    game_mode: a.gameMode,
  }));

  await executeBatched(db, store.dialect, 'ranked_results', sorted.map(resultRow), (chunk) =>
    db
      .insertInto('ranked_results')
      .values(chunk)
      .onConflict((oc) => oc.doNothing()),
  );

  const empty = keys.map((key) => ({ ...key, ...stateColumns(undefined), updated_at: now }));
  const locked = await executeBatched(db, store.dialect, 'ranked_stats_lock', empty, (chunk) =>
    db
      .insertInto('ranked_stats')
      .values(chunk)
      .onConflict((oc) =>
        oc
          .columns(['platform', 'account_id', 'season_id', 'game_mode'])
          .doUpdateSet({ updated_at: sql<number>`excluded.updated_at` }),
      )
      .returningAll(),
  );
  const stored = new Map(locked.map((row) => [keyOf(row), stateOf(row)]));

  const next = new Map<string, RankedState | undefined>();
  const refold: RankedAddition[] = [];
  sorted.forEach((addition, i) => {
    const key = keyOf(keys[i]!);
    const state = stored.get(key);
    if (state === undefined || isAfter(addition.result, state)) {
      next.set(key, applyRankedResult(state, addition.result));
    } else {
      refold.push(addition);
    }
  });
  for (const [key, results] of await readSequences(db, refold)) {
    next.set(key, foldRankedResults(results));
  }

  const rows: RankedStatsTable[] = keys.map((key) => ({
    ...key,
    ...stateColumns(next.get(keyOf(key))),
    updated_at: now,
  }));
  await executeBatched(db, store.dialect, 'ranked_stats', rows, (chunk) =>
    db
      .insertInto('ranked_stats')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['platform', 'account_id', 'season_id', 'game_mode']).doUpdateSet(STATE_UPDATE),
      ),
  );
}

/** Every stored result of the players to fold again, keyed by aggregate; one query. */
async function readSequences(
  db: Db,
  additions: readonly RankedAddition[],
): Promise<Map<string, RankedResult[]>> {
  const sequences = new Map<string, RankedResult[]>();
  if (additions.length === 0) return sequences;
  const wanted = new Set(
    additions.map((a) =>
      keyOf({
        platform: a.platform,
        account_id: a.accountId,
        season_id: a.seasonId,
        game_mode: a.gameMode,
      }),
    ),
  );
  const distinct = (pick: (a: RankedAddition) => string) => [...new Set(additions.map(pick))];
  // A superset (the columns are filtered independently), narrowed to the wanted keys below.
  const rows = await db
    .selectFrom('ranked_results')
    .selectAll()
    .where(
      'platform',
      'in',
      distinct((a) => a.platform),
    )
    .where(
      'account_id',
      'in',
      distinct((a) => a.accountId),
    )
    .where(
      'season_id',
      'in',
      distinct((a) => a.seasonId),
    )
    .where(
      'game_mode',
      'in',
      distinct((a) => a.gameMode),
    )
    .execute();
  for (const row of rows) {
    const key = keyOf(row);
    if (!wanted.has(key)) continue;
    const list = sequences.get(key);
    const result = resultOf(row);
    if (list) list.push(result);
    else sequences.set(key, [result]);
  }
  return sequences;
}
