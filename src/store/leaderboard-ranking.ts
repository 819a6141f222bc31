/**
 * The leaderboard ranking of src/domain/ranking.ts computed in the database: pooled means, the
 * shrunk log-ratio score, the order with its tie-breaks and the regional positions, in one
 * statement, so a rebuild reads only the entries it stores — not every candidate of a mode
 * (a million players are two million candidates). The same SQL runs on SQLite and PostgreSQL.
 */
import { sql, type RawBuilder } from 'kysely';
import {
  LEADERBOARD_SIZE,
  PRIOR_GAMES,
  REGIONAL_LEADERBOARD_SIZE,
  WEIGHTS,
  rankPointsOf,
  tierOf,
  type RankedPlayer,
} from '../domain/ranking.ts';
import type { LeaderboardCandidate, LeaderboardKey } from './leaderboards.ts';
import type { Store } from './store.ts';

/** The stored entries of one leaderboard and how many players were ranked for it. */
export interface RankedLeaderboard {
  entries: RankedPlayer<LeaderboardCandidate>[];
  /** Players with an aggregate for the key: the population the means were pooled over. */
  candidates: number;
}

/** A number as a double-precision literal on both dialects (never an integer or a numeric). */
const double = (value: number): RawBuilder<number> =>
  sql<number>`CAST(${sql.lit(value)} AS double precision)`;

/** `ln(shrunk / mean)` of a player's `sum` over `c.games`, 0 when the mean is 0 (as `logRatio`). */
const logRatio = (sum: RawBuilder<number>, mean: RawBuilder<number>): RawBuilder<number> =>
  sql<number>`CASE WHEN ${mean} > 0 THEN ln(((${sum} + ${double(PRIOR_GAMES)} * ${mean}) / (c.games + ${sql.lit(PRIOR_GAMES)})) / ${mean}) ELSE ${double(0)} END`;

const ref = (name: string): RawBuilder<number> => sql<number>`${sql.ref(name)}`;

/** The score of `rankScore`, term by term in the same order (floating-point sums depend on it). */
const SCORE = sql<number>`${double(WEIGHTS.winRate)} * ${logRatio(ref('c.wins'), ref('m.win_rate'))}
  + ${double(WEIGHTS.top10Rate)} * ${logRatio(ref('c.top10s'), ref('m.top10_rate'))}
  - ${double(WEIGHTS.placement)} * ${logRatio(ref('c.win_place_sum'), ref('m.placement'))}
  + ${double(WEIGHTS.kills)} * ${logRatio(ref('c.kills'), ref('m.kills'))}
  + ${double(WEIGHTS.damage)} * ${logRatio(ref('c.damage_dealt'), ref('m.damage'))}`;

/** A pooled mean: the sum over every counted game, 0 when nobody played (as `populationMeans`). */
const mean = (column: string): RawBuilder<number> =>
  sql<number>`CASE WHEN sum(s.rounds_played) > 0 THEN CAST(sum(${sql.ref(column)}) AS double precision) / CAST(sum(s.rounds_played) AS double precision) ELSE ${double(0)} END`;

/**
 * Ranks every player with an aggregate for `key` in the database and returns the entries a build
 * stores (as `leaderboardEntries(rankPlayers(…))`): the top `size` of the platform plus the top
 * `regionalSize` of each named region, in rank order, with rank points and tier.
 *
 * Equal to the JS rule except in the last bits of the pooled damage mean, which the database may
 * sum in another order than account id order: scores then differ by a few units in the last
 * place, which can only swap two players whose scores agree to ~15 digits.
 */
export async function rankLeaderboard(
  store: Store,
  key: LeaderboardKey,
  size = LEADERBOARD_SIZE,
  regionalSize = REGIONAL_LEADERBOARD_SIZE,
): Promise<RankedLeaderboard> {
  const order = sql`score DESC, wins DESC, games DESC, ${store.bytewise(sql.ref('account_id'))}`;
  const where = sql`s.platform = ${key.platform} AND s.season_id = ${key.seasonId}
    AND s.game_mode = ${key.gameMode}`;
  // The means are pooled over the aggregates alone (every aggregate has its player row); the
  // region, for the regional positions, comes with the one pass that scores. Only the top of
  // each region can be in the top of the platform (whoever has fewer than `size` players above
  // them overall has fewer in their region), so the platform's order sorts just those.
  const { rows } = await sql<RankedRow>`
    WITH m AS (
      SELECT ${mean('s.wins')} AS win_rate, ${mean('s.top10s')} AS top10_rate,
        ${mean('s.win_place_sum')} AS placement, ${mean('s.kills')} AS kills,
        ${mean('s.damage_dealt')} AS damage, count(*) AS population
      FROM season_stats s
      WHERE ${where}
    ),
    c AS (
      SELECT s.account_id, p.region, s.rounds_played AS games, s.wins, s.top10s, s.kills,
        s.damage_dealt, s.win_place_sum
      FROM season_stats s
      JOIN players p ON p.platform = s.platform AND p.account_id = s.account_id
      WHERE ${where}
    ),
    regional AS (
      SELECT scored.*, row_number() OVER (PARTITION BY region ORDER BY ${order}) AS region_place
      FROM (SELECT c.*, ${SCORE} AS score FROM c CROSS JOIN m) scored
    ),
    ranked AS (
      SELECT regional.*, row_number() OVER (ORDER BY ${order}) AS place
      FROM regional
      WHERE region_place <= ${Math.max(size, regionalSize)}
    )
    SELECT r.account_id, p.name, r.region, r.games, r.wins, r.top10s, r.kills, r.damage_dealt,
      r.win_place_sum, r.score, r.place, m.population
    FROM ranked r
    CROSS JOIN m
    JOIN players p ON p.platform = ${key.platform} AND p.account_id = r.account_id
    WHERE r.place <= ${size} OR (r.region <> '' AND r.region_place <= ${regionalSize})
    ORDER BY r.place`.execute(store.db);
  const entries = rows.map((row): RankedPlayer<LeaderboardCandidate> => {
    const score = Number(row.score);
    const rankPoints = rankPointsOf(score);
    return {
      player: {
        accountId: row.account_id,
        name: row.name,
        region: row.region,
        games: Number(row.games),
        wins: Number(row.wins),
        top10s: Number(row.top10s),
        kills: Number(row.kills),
        damageDealt: Number(row.damage_dealt),
        winPlaceSum: Number(row.win_place_sum),
      },
      rank: Number(row.place),
      score,
      rankPoints,
      ...tierOf(rankPoints),
    };
  });
  return { entries, candidates: rows.length > 0 ? Number(rows[0]!.population) : 0 };
}

interface RankedRow {
  account_id: string;
  name: string;
  region: string;
  games: number | string;
  wins: number | string;
  top10s: number | string;
  kills: number | string;
  damage_dealt: number | string;
  win_place_sum: number | string;
  score: number | string;
  place: number | string;
  population: number | string;
}
