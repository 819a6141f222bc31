/**
 * Leaderboard ranking: the rank score of a player's season aggregates in one game mode, the
 * order of a leaderboard, integer rank points and the tier they fall in.
 *
 * **Rank score.** Five per-game rates are taken from the aggregate of `n` games: win rate,
 * top-10 rate, average placement, kills and damage per game. Each is first shrunk toward the
 * pooled mean `m` of every ranked player of the same platform, season and mode, as if the player
 * had also played `PRIOR_GAMES` perfectly average games:
 *
 *     shrunk = (sum + PRIOR_GAMES · m) / (n + PRIOR_GAMES)
 *
 * so one lucky win counts for little and a long record for nearly all. Each shrunk rate then
 * becomes a log ratio to the mean — `ln(shrunk / m)`, or `ln(m / shrunk)` for placement, where
 * lower is better — and the score is their weighted sum (weights in `WEIGHTS`, adding up to 1).
 * An average player scores 0; a player twice as good on every rate scores ln 2 ≈ 0.69. Log
 * ratios put every mode on one scale (a 10 % win rate is far rarer in solo than in squad) and
 * keep one outsized rate from dominating. A rate whose mean is 0 (nobody has won yet) adds 0.
 *
 * **Rank points** are `2000 + 1000 · score`, rounded and never below 0: the average player sits
 * at Gold 2, twice as good at Crystal 4, about five and a half times as good at Survivor.
 *
 * **Order**: score descending, then wins descending, games descending, account id ascending, so
 * every build of the same data ranks identically.
 */

/** What ranking reads of a player's (platform, season, mode) aggregate. */
export interface PlayerAggregate {
  accountId: string;
  games: number;
  wins: number;
  top10s: number;
  kills: number;
  damageDealt: number;
  /** Sum of the placements (`winPlace`) of the player's games. */
  winPlaceSum: number;
}

/** Pooled per-game means of a ranked population: every counted game weighs the same. */
export interface PopulationMeans {
  winRate: number;
  top10Rate: number;
  placement: number;
  kills: number;
  damage: number;
}

/** Average games every player is credited with at the population mean (the confidence shrink). */
export const PRIOR_GAMES = 20;

/** Weights of the log-ratio components of the score; they add up to 1. */
export const WEIGHTS: Readonly<PopulationMeans> = Object.freeze({
  winRate: 0.3,
  top10Rate: 0.15,
  placement: 0.2,
  kills: 0.2,
  damage: 0.15,
});

/** Rank points of an average player, and the points one unit of score is worth. */
const BASE_POINTS = 2000;
const POINTS_PER_SCORE = 1000;

export const TIERS = [
  'Bronze',
  'Silver',
  'Gold',
  'Platinum',
  'Crystal',
  'Diamond',
  'Master',
  'Survivor',
] as const;
export type Tier = (typeof TIERS)[number];

/**
 * Lowest rank points of each tier. Below Master a tier is four 100-point sub-tiers, "4" lowest
 * to "1" highest — the bands of the real service's recorded leaderboards — and Bronze adds "5"
 * for everything under 1000. Master and Survivor have the one sub-tier "1".
 */
const TIER_FLOORS: ReadonlyArray<readonly [Tier, number]> = [
  ['Survivor', 3700],
  ['Master', 3400],
  ['Diamond', 3000],
  ['Crystal', 2600],
  ['Platinum', 2200],
  ['Gold', 1800],
  ['Silver', 1400],
  ['Bronze', 1000],
];
const SUB_TIER_POINTS = 100;
const SUB_TIERS = 4;

/** The pooled per-game means of a population (zeros when it has played no game). */
export function populationMeans(players: readonly PlayerAggregate[]): PopulationMeans {
  // Summed in account id order: float sums depend on order, and a build must not depend on the
  // order the database returned rows in.
  const sorted = [...players].sort((a, b) => compareIds(a.accountId, b.accountId));
  let games = 0;
  let wins = 0;
  let top10s = 0;
  let placements = 0;
  let kills = 0;
  let damage = 0;
  for (const p of sorted) {
    games += p.games;
    wins += p.wins;
    top10s += p.top10s;
    placements += p.winPlaceSum;
    kills += p.kills;
    damage += p.damageDealt;
  }
  if (games === 0) return { winRate: 0, top10Rate: 0, placement: 0, kills: 0, damage: 0 };
  return {
    winRate: wins / games,
    top10Rate: top10s / games,
    placement: placements / games,
    kills: kills / games,
    damage: damage / games,
  };
}

/** `ln(shrunk rate / mean)`, 0 when the mean is 0; `sum` is the player's total over `games`. */
function logRatio(sum: number, games: number, mean: number): number {
  if (mean <= 0) return 0;
  const shrunk = (sum + PRIOR_GAMES * mean) / (games + PRIOR_GAMES);
  return Math.log(shrunk / mean);
}

/** The rank score of one player against the population's means (see the module comment). */
export function rankScore(player: PlayerAggregate, means: PopulationMeans): number {
  const n = player.games;
  return (
    WEIGHTS.winRate * logRatio(player.wins, n, means.winRate) +
    WEIGHTS.top10Rate * logRatio(player.top10s, n, means.top10Rate) -
    WEIGHTS.placement * logRatio(player.winPlaceSum, n, means.placement) +
    WEIGHTS.kills * logRatio(player.kills, n, means.kills) +
    WEIGHTS.damage * logRatio(player.damageDealt, n, means.damage)
  );
}

/** Integer rank points of a score: 2000 for the average player, never below 0. */
export function rankPointsOf(score: number): number {
  return Math.max(0, Math.round(BASE_POINTS + POINTS_PER_SCORE * score));
}

/** The tier and sub-tier (`"1"` best … `"5"`) of an amount of rank points. */
export function tierOf(rankPoints: number): { tier: Tier; subTier: string } {
  for (const [tier, floor] of TIER_FLOORS) {
    if (rankPoints < floor) continue;
    if (tier === 'Master' || tier === 'Survivor') return { tier, subTier: '1' };
    const band = Math.min(SUB_TIERS - 1, Math.floor((rankPoints - floor) / SUB_TIER_POINTS));
    return { tier, subTier: String(SUB_TIERS - band) };
  }
  return { tier: 'Bronze', subTier: '5' };
}

const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A player placed on a leaderboard. */
export interface RankedPlayer<P extends PlayerAggregate> {
  player: P;
  /** 1-based position in the whole ranked population. */
  rank: number;
  score: number;
  rankPoints: number;
  tier: Tier;
  subTier: string;
}

/** Every player in leaderboard order, ranked 1..n (see the module comment for the order). */
export function rankPlayers<P extends PlayerAggregate>(players: readonly P[]): RankedPlayer<P>[] {
  const means = populationMeans(players);
  const scored = players.map((player) => ({ player, score: rankScore(player, means) }));
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      b.player.wins - a.player.wins ||
      b.player.games - a.player.games ||
      compareIds(a.player.accountId, b.player.accountId),
  );
  return scored.map(({ player, score }, index) => {
    const rankPoints = rankPointsOf(score);
    return { player, rank: index + 1, score, rankPoints, ...tierOf(rankPoints) };
  });
}

/** How many players a leaderboard keeps (spec §8), and each regional view of it (REFERENCE §3.10). */
export const LEADERBOARD_SIZE = 1000;
export const REGIONAL_LEADERBOARD_SIZE = 500;

/**
 * The entries a build stores, in rank order: the top `size` of the platform, plus whoever else is
 * among the top `regionalSize` of their own region, so that every regional view is complete and
 * not only the part of the region that made the platform's top 1000.
 */
export function leaderboardEntries<P extends PlayerAggregate & { region: string }>(
  ranked: readonly RankedPlayer<P>[],
  size = LEADERBOARD_SIZE,
  regionalSize = REGIONAL_LEADERBOARD_SIZE,
): RankedPlayer<P>[] {
  const perRegion = new Map<string, number>();
  return ranked.filter((entry) => {
    const region = entry.player.region;
    const inRegion = (perRegion.get(region) ?? 0) + 1;
    perRegion.set(region, inRegion);
    return entry.rank <= size || (region !== '' && inRegion <= regionalSize);
  });
}
