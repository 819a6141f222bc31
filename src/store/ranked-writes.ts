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
import type { RankedResultsTable, RankedStatsTable } from './schema.ts';
import type { Db, Store } from './store.ts';

/** One player's result in a ranked match, with the aggregate it belongs to. */
export interface RankedAddition {
  platform: string;
  accountId: string;
  seasonId: string;
  gameMode: string;
  result: RankedResult;
}

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

const STATE_COLUMN_NAMES = [
  'rank_points',
  'best_rank_points',
  'rounds_played',
  'wins',
  'top10s',
  'kills',
  'deaths',
  'assists',
  'dbnos',
  'damage_dealt',
  'win_place_sum',
  'last_match_at',
  'last_match_id',
  'updated_at',
] as const;

const STATE_UPDATE = Object.fromEntries(
  STATE_COLUMN_NAMES.map((column) => [column, sql.ref(`excluded.${column}`)]),
);

/** A state as row columns; undefined (no match yet) as the zero row the lock upsert creates. */
function stateColumns(
  state: RankedState | undefined,
): Omit<RankedStatsTable, 'platform' | 'account_id' | 'season_id' | 'game_mode' | 'updated_at'> {
  return {
    rank_points: state?.rankPoints ?? 0,
    best_rank_points: state?.bestRankPoints ?? 0,
    rounds_played: state?.roundsPlayed ?? 0,
    wins: state?.wins ?? 0,
    top10s: state?.top10s ?? 0,
    kills: state?.kills ?? 0,
    deaths: state?.deaths ?? 0,
    assists: state?.assists ?? 0,
    dbnos: state?.dbnos ?? 0,
    damage_dealt: state?.damageDealt ?? 0,
    win_place_sum: state?.winPlaceSum ?? 0,
    last_match_at: state?.lastMatchAt ?? 0,
    last_match_id: state?.lastMatchId ?? '',
  };
}

/** A stored row as a state; a row without matches (just created by the lock) as undefined. */
export function stateOf(row: RankedStatsTable): RankedState | undefined {
  if (Number(row.rounds_played) === 0) return undefined;
  return {
    rankPoints: Number(row.rank_points),
    bestRankPoints: Number(row.best_rank_points),
    roundsPlayed: Number(row.rounds_played),
    wins: Number(row.wins),
    top10s: Number(row.top10s),
    kills: Number(row.kills),
    deaths: Number(row.deaths),
    assists: Number(row.assists),
    dbnos: Number(row.dbnos),
    damageDealt: Number(row.damage_dealt),
    winPlaceSum: Number(row.win_place_sum),
    lastMatchAt: Number(row.last_match_at),
    lastMatchId: row.last_match_id,
  };
}

function resultRow(addition: RankedAddition): RankedResultsTable {
  const r = addition.result;
  return {
    platform: addition.platform,
    account_id: addition.accountId,
    season_id: addition.seasonId,
    game_mode: addition.gameMode,
    created_at: r.createdAt,
    match_id: r.matchId,
    win_place: r.winPlace,
    won: r.won ? 1 : 0,
    kills: r.kills,
    assists: r.assists,
    dbnos: r.dbnos,
    damage_dealt: r.damageDealt,
    died: r.died ? 1 : 0,
  };
}

function resultOf(row: RankedResultsTable): RankedResult {
  return {
    matchId: row.match_id,
    createdAt: Number(row.created_at),
    winPlace: Number(row.win_place),
    won: Number(row.won) === 1,
    kills: Number(row.kills),
    assists: Number(row.assists),
    dbnos: Number(row.dbnos),
    damageDealt: Number(row.damage_dealt),
    died: Number(row.died) === 1,
  };
}
