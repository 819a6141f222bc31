/**
 * What a leaderboard rebuild reads (src/store/leaderboard-ranking.ts ranks it): the pooled
 * means of a (platform, season, mode), where a range of its candidates ends, and one range of
 * candidates with their region — all from the covering index `season_stats_ranking_by_region`
 * — leaving out those who score below a bound of their region; then the names of the kept.
 * The same SQL on both.
 */
import { sql, type RawBuilder } from 'kysely';
import { PRIOR_GAMES, WEIGHTS, type PopulationMeans } from '../domain/ranking.ts';
import type { LeaderboardCandidate, LeaderboardKey } from './leaderboards.ts';
import type { Db } from './store.ts';

/** A number as a double-precision value on both dialects (never an integer or a numeric). */
const double = (value: RawBuilder<unknown>): RawBuilder<number> =>
  sql<number>`CAST(${value} AS double precision)`;

const sumOf = (column: string): RawBuilder<number> => double(sql`sum(${sql.ref(column)})`);

/** The pooled per-game means of the key's population (as `populationMeans`) and its size. */
export async function readMeans(
  db: Db,
  key: LeaderboardKey,
): Promise<{ means: PopulationMeans; population: number }> {
  const row = await db
    .selectFrom('season_stats')
    .select([
      sumOf('rounds_played').as('games'),
      sumOf('wins').as('wins'),
      sumOf('top10s').as('top10s'),
      sumOf('win_place_sum').as('placements'),
      sumOf('kills').as('kills'),
      sumOf('damage_dealt').as('damage'),
      sql<number | string>`count(*)`.as('population'),
    ])
    .where('platform', '=', key.platform)
    .where('season_id', '=', key.seasonId)
    .where('game_mode', '=', key.gameMode)
    .executeTakeFirstOrThrow();
  const games = Number(row.games ?? 0);
  const per = (total: number | null): number => (games > 0 ? Number(total ?? 0) / games : 0);
  return {
    means: {
      winRate: per(row.wins),
      top10Rate: per(row.top10s),
      placement: per(row.placements),
      kills: per(row.kills),
      damage: per(row.damage),
    },
    population: Number(row.population),
  };
}

/** `ln(shrunk / mean)` of `sum` over the row's games, as `logRatio` (0 when the mean is 0). */
function logRatio(sum: string, mean: number): RawBuilder<number> {
  if (mean <= 0) return sql<number>`0`;
  const m = double(sql`${mean}`);
  return sql<number>`ln(((${sql.ref(sum)} + ${PRIOR_GAMES} * ${m}) / (s.rounds_played + ${PRIOR_GAMES})) / ${m})`;
}

/** `rankScore` in SQL, term by term in the same order. */
const scoreOf = (means: PopulationMeans): RawBuilder<number> =>
  sql<number>`${WEIGHTS.winRate} * ${logRatio('s.wins', means.winRate)}
    + ${WEIGHTS.top10Rate} * ${logRatio('s.top10s', means.top10Rate)}
    - ${WEIGHTS.placement} * ${logRatio('s.win_place_sum', means.placement)}
    + ${WEIGHTS.kills} * ${logRatio('s.kills', means.kills)}
    + ${WEIGHTS.damage} * ${logRatio('s.damage_dealt', means.damage)}`;

/**
 * The account id of the `count`th candidate after `after` (null: from the first), or null when
 * fewer are left: where a page ends, read from the covering index alone. Pages are account id
 * ranges rather than limits, so each statement reads a bounded range of both tables.
 */
export async function rangeEnd(
  db: Db,
  key: LeaderboardKey,
  after: string | null,
  count: number,
): Promise<string | null> {
  let query = db
    .selectFrom('season_stats')
    .select('account_id')
    .where('platform', '=', key.platform)
    .where('season_id', '=', key.seasonId)
    .where('game_mode', '=', key.gameMode)
    .orderBy('account_id')
    .limit(1)
    .offset(count - 1);
  if (after !== null) query = query.where('account_id', '>', after);
  const row = await query.executeTakeFirst();
  return row?.account_id ?? null;
}

export interface CandidatePage {
  /** The page is the account ids after `after` (null: from the first) up to `upTo` (null: all). */
  after: string | null;
  upTo: string | null;
  means: PopulationMeans;
  /** Per region, the score below which its candidates are left out (they cannot be kept). */
  bounds: ReadonlyMap<string, number>;
}

/** A candidate as the ranking reads it: the aggregate and region, the name read for the kept. */
export type RankingCandidate = Omit<LeaderboardCandidate, 'name'>;

/**
 * One page of the key's candidates (in no order: the heaps need none), leaving out those scoring
 * below their region's bound, so the rows that reach JS are the few that can still be kept.
 * Everything comes from the covering index: the region is the copy of the player's region
 * beside the aggregate (`season_stats.region`), so no page reads a player.
 */
export async function readCandidates(
  db: Db,
  key: LeaderboardKey,
  { after, upTo, means, bounds }: CandidatePage,
): Promise<RankingCandidate[]> {
  let query = db
    .selectFrom('season_stats as s')
    .select([
      's.account_id',
      's.region',
      's.rounds_played',
      's.wins',
      's.top10s',
      's.kills',
      's.damage_dealt',
      's.win_place_sum',
    ])
    .where('s.platform', '=', key.platform)
    .where('s.season_id', '=', key.seasonId)
    .where('s.game_mode', '=', key.gameMode);
  if (after !== null) query = query.where('s.account_id', '>', after);
  if (upTo !== null) query = query.where('s.account_id', '<=', upTo);
  if (bounds.size > 0) {
    const cases = [...bounds].map(
      ([region, bound]) => sql`WHEN ${region} THEN ${double(sql`${bound}`)}`,
    );
    const bound = sql`CASE s.region ${sql.join(cases, sql` `)} ELSE ${double(sql`${-Number.MAX_VALUE}`)} END`;
    query = query.where(sql<boolean>`${scoreOf(means)} >= ${bound}`);
  }
  const rows = await query.execute();
  return rows.map((row) => ({
    accountId: row.account_id,
    region: row.region,
    ...aggregateOf(row),
  }));
}

const aggregateOf = (row: {
  rounds_played: number;
  wins: number;
  top10s: number;
  kills: number;
  damage_dealt: number;
  win_place_sum: number;
}): Omit<RankingCandidate, 'accountId' | 'region'> => ({
  games: Number(row.rounds_played),
  wins: Number(row.wins),
  top10s: Number(row.top10s),
  kills: Number(row.kills),
  damageDealt: Number(row.damage_dealt),
  winPlaceSum: Number(row.win_place_sum),
});

/** Statements of `readNames` hold at most this many ids (far below either database's limit). */
const NAMES_PER_READ = 1_000;

/** The current name of each of these players of `platform` (by primary key), by account id. */
export async function readNames(
  db: Db,
  platform: string,
  accountIds: readonly string[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (let i = 0; i < accountIds.length; i += NAMES_PER_READ) {
    const rows = await db
      .selectFrom('players')
      .select(['account_id', 'name'])
      .where('platform', '=', platform)
      .where('account_id', 'in', accountIds.slice(i, i + NAMES_PER_READ))
      .execute();
    for (const row of rows) names.set(row.account_id, row.name);
  }
  return names;
}

/**
 * Every player with an aggregate for the leaderboard's platform, season and mode, with their
 * current name and region as the players table has them (the definition the copy beside the
 * aggregates follows): what the ranking is checked against. Bots never have aggregates, so
 * they are never candidates.
 */
export async function listLeaderboardCandidates(
  db: Db,
  key: LeaderboardKey,
): Promise<LeaderboardCandidate[]> {
  const rows = await db
    .selectFrom('season_stats as s')
    .innerJoin('players as p', (join) =>
      join.onRef('p.platform', '=', 's.platform').onRef('p.account_id', '=', 's.account_id'),
    )
    .select([
      's.account_id',
      'p.name',
      'p.region',
      's.rounds_played',
      's.wins',
      's.top10s',
      's.kills',
      's.damage_dealt',
      's.win_place_sum',
    ])
    .where('s.platform', '=', key.platform)
    .where('s.season_id', '=', key.seasonId)
    .where('s.game_mode', '=', key.gameMode)
    .execute();
  return rows.map((row) => ({
    accountId: row.account_id,
    name: row.name,
    region: row.region,
    ...aggregateOf(row),
  }));
}
