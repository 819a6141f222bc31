/**
 * The row mappers of the ranked tables: the only place their snake_case columns meet the
 * domain's RankedResult and RankedState.
 */
import { sql } from 'kysely';
import type { RankedResult, RankedState } from '../domain/ranked-stats.ts';
import type { RankedResultsTable, RankedStatsTable } from './schema.ts';

/** One player's result in a ranked match, with the aggregate it belongs to. */
export interface RankedAddition {
  platform: string;
  accountId: string;
  seasonId: string;
  gameMode: string;
  result: RankedResult;
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

/** The SET list that replaces a stored state with the written one. */
export const STATE_UPDATE = Object.fromEntries(
  STATE_COLUMN_NAMES.map((column) => [column, sql.ref(`excluded.${column}`)]),
);

/** A state as row columns; undefined (no match yet) as the zero row the lock upsert creates. */
export function stateColumns(
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

export function resultRow(addition: RankedAddition): RankedResultsTable {
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

export function resultOf(row: RankedResultsTable): RankedResult {
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
