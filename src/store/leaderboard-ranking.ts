/**
 * The leaderboard ranking of src/domain/ranking.ts at a million players: the pooled means in one
 * aggregate statement, then every candidate read in pages of `CANDIDATES_PER_READ` in account id
 * order (the covering index `season_stats_ranking`, joined to players for name and region),
 * scored with the domain's `rankScore` and kept only while among the best of its region. No
 * candidate list is ever held, no statement sorts the population, and no statement runs long:
 * the store is free between pages for the writers and readers of other threads.
 *
 * The pages are read outside one transaction: an ingest committed meanwhile is counted for the
 * players read after it. A leaderboard is a snapshot of "about now" either way.
 */
import { sql, type RawBuilder } from 'kysely';
import { BoundedBest } from '../domain/bounded-best.ts';
import {
  LEADERBOARD_SIZE,
  PRIOR_GAMES,
  REGIONAL_LEADERBOARD_SIZE,
  WEIGHTS,
  rankPointsOf,
  rankScore,
  tierOf,
  type PopulationMeans,
  type RankedPlayer,
} from '../domain/ranking.ts';
import type { LeaderboardCandidate, LeaderboardKey } from './leaderboards.ts';
import type { Db, Store } from './store.ts';

/** Candidates read per statement: large enough that per-statement costs vanish, small in memory. */
const CANDIDATES_PER_READ = 20_000;

/** The stored entries of one leaderboard and how many players were ranked for it. */
export interface RankedLeaderboard {
  entries: RankedPlayer<LeaderboardCandidate>[];
  /** Players with an aggregate for the key: the population the means were pooled over. */
  candidates: number;
}

interface Scored {
  player: LeaderboardCandidate;
  score: number;
}

/** The leaderboard order: score, then wins and games descending, then account id bytewise. */
const ahead = (a: Scored, b: Scored): boolean =>
  a.score !== b.score
    ? a.score > b.score
    : a.player.wins !== b.player.wins
      ? a.player.wins > b.player.wins
      : a.player.games !== b.player.games
        ? a.player.games > b.player.games
        : a.player.accountId < b.player.accountId;

const compare = (a: Scored, b: Scored): number => (ahead(a, b) ? -1 : ahead(b, a) ? 1 : 0);

/**
 * Ranks every player with an aggregate for `key` and returns the entries a build stores (as
 * `leaderboardEntries(rankPlayers(…))`): the top `size` of the platform plus the top
 * `regionalSize` of each named region, in rank order, with rank points and tier. Only the best
 * `max(size, regionalSize)` of each region can be among them (whoever has fewer than `size`
 * players above them overall has fewer in their region), so that is all that is kept; an entry
 * below the platform's top `size` is ranked by its position among those. `perRead` is the
 * number of candidates a statement reads (tests make it small).
 *
 * The means are summed by the database in its own order, which can differ from the JS rule's
 * account id order in the last bits of the damage mean: scores then differ by a few units in
 * the last place, which can only swap two players whose scores agree to ~15 digits.
 */
export async function rankLeaderboard(
  store: Store,
  key: LeaderboardKey,
  size = LEADERBOARD_SIZE,
  regionalSize = REGIONAL_LEADERBOARD_SIZE,
  perRead = CANDIDATES_PER_READ,
): Promise<RankedLeaderboard> {
  const { means, population } = await readMeans(store.db, key);
  if (population === 0) return { entries: [], candidates: 0 };
  const capacity = Math.max(size, regionalSize);
  const regions = new Map<string, BoundedBest<Scored>>();
  let after: string | null = null;
  do {
    const upTo = await rangeEnd(store.db, key, after, perRead);
    const page = await readCandidates(store.db, key, {
      after,
      upTo,
      means,
      bounds: cutOffs(regions, capacity),
    });
    for (const player of page) {
      let best = regions.get(player.region);
      if (best === undefined) regions.set(player.region, (best = new BoundedBest(capacity, ahead)));
      best.offer({ player, score: rankScore(player, means) });
    }
    after = upTo;
  } while (after !== null);

  const kept = [...regions.values()].flatMap((best) => [...best.items()]).sort(compare);
  const perRegion = new Map<string, number>();
  const entries: RankedPlayer<LeaderboardCandidate>[] = [];
  for (const [index, { player, score }] of kept.entries()) {
    const inRegion = (perRegion.get(player.region) ?? 0) + 1;
    perRegion.set(player.region, inRegion);
    if (index >= size && (player.region === '' || inRegion > regionalSize)) continue;
    const rankPoints = rankPointsOf(score);
    entries.push({ player, rank: index + 1, score, rankPoints, ...tierOf(rankPoints) });
  }
  return { entries, candidates: population };
}

/**
 * Below what score a candidate of each region can no longer be kept: the worst kept score of
 * every region whose best are complete, less a margin for the last bits in which the
 * database's logarithm may differ from JS's (the kept are scored again in JS).
 */
function cutOffs(regions: Map<string, BoundedBest<Scored>>, capacity: number): Map<string, number> {
  const bounds = new Map<string, number>();
  for (const [region, best] of regions) {
    const items = best.items();
    if (items.length === capacity) bounds.set(region, items[0]!.score - SCORE_MARGIN);
  }
  return bounds;
}

/** Far above a rounding difference of scores near 1, far below any real difference. */
const SCORE_MARGIN = 1e-9;

/** A number as a double-precision value on both dialects (never an integer or a numeric). */
const double = (value: RawBuilder<unknown>): RawBuilder<number> =>
  sql<number>`CAST(${value} AS double precision)`;

const sumOf = (column: string): RawBuilder<number> => double(sql`sum(${sql.ref(column)})`);

/** The pooled per-game means of the key's population (as `populationMeans`) and its size. */
async function readMeans(
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
async function rangeEnd(
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

interface CandidatePage {
  /** The page is the account ids after `after` (null: from the first) up to `upTo` (null: all). */
  after: string | null;
  upTo: string | null;
  means: PopulationMeans;
  /** Per region, the score below which its candidates are left out (they cannot be kept). */
  bounds: ReadonlyMap<string, number>;
}

/**
 * One page of the key's candidates (in no order: the heaps need none), leaving out those scoring
 * below their region's bound, so the rows that reach JS are the few that can still be kept.
 */
async function readCandidates(
  db: Db,
  key: LeaderboardKey,
  { after, upTo, means, bounds }: CandidatePage,
): Promise<LeaderboardCandidate[]> {
  let query = db
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
    .where('s.game_mode', '=', key.gameMode);
  // On both sides of the join: PostgreSQL does not carry a range over the join's equality, and
  // would otherwise read the platform's players from the first (or all of them) at every page.
  if (after !== null)
    query = query.where('s.account_id', '>', after).where('p.account_id', '>', after);
  if (upTo !== null)
    query = query.where('s.account_id', '<=', upTo).where('p.account_id', '<=', upTo);
  if (bounds.size > 0) {
    const cases = [...bounds].map(
      ([region, bound]) => sql`WHEN ${region} THEN ${double(sql`${bound}`)}`,
    );
    const bound = sql`CASE p.region ${sql.join(cases, sql` `)} ELSE ${double(sql`${-Number.MAX_VALUE}`)} END`;
    query = query.where(sql<boolean>`${scoreOf(means)} >= ${bound}`);
  }
  const rows = await query.execute();
  return rows.map((row) => ({
    accountId: row.account_id,
    name: row.name,
    region: row.region,
    games: Number(row.rounds_played),
    wins: Number(row.wins),
    top10s: Number(row.top10s),
    kills: Number(row.kills),
    damageDealt: Number(row.damage_dealt),
    winPlaceSum: Number(row.win_place_sum),
  }));
}
