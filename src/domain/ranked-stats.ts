/**
 * Ranked stats of one (player, platform, season, ranked mode): the state kept at ingest, how a
 * ranked match changes it, and how it becomes the 30-member `RankedGameModeStats` object of
 * REFERENCE §4.4.
 *
 * The state is always the fold of the player's ranked matches of that season in match order
 * (createdAt, then match id). A match newer than every one already counted is applied to the
 * stored state; a match older than one already counted (a recording ingested late) makes the
 * store fold the whole stored sequence again, so the points never depend on ingest order.
 *
 * | member | derivation |
 * |---|---|
 * | `currentRankPoint`, `currentTier` | points after the newest match (ranked-points.ts), its tier (ranked-tiers.ts) |
 * | `bestRankPoint`, `bestTier` | the highest points after any of the season's matches, its tier |
 * | `roundsPlayed`, `wins` | matches; matches whose roster won |
 * | `kills`, `assists`, `dBNOs`, `damageDealt` | sums of the participant stats (`DBNOs` for `dBNOs`) |
 * | `deaths` | matches the player did not survive (`deathType` other than `alive`) |
 * | `avgRank` | mean `winPlace` |
 * | `top10Ratio`, `winRatio` | share of matches placed 10th or better; share won |
 * | `kda` | (kills + assists) / deaths, or kills + assists without a death |
 * | `avgKill` | kills / roundsPlayed |
 * | `avgSurvivalTime`, `kdr`, `roundMostKills`, `longestKill`, `headshotKills`, `headshotKillRatio`, `reviveRatio`, `revives`, `heals`, `boosts`, `weaponsAcquired`, `teamKills`, `playTime`, `killStreak` | deprecated by the real service: always 0 |
 *
 * (The real service sent `kda: 0` in a 2026 capture, as it does on leaderboards; it is not
 * listed as deprecated, so it is computed here.)
 */
import { rankPointsAfter, START_RANK_POINTS } from './ranked-points.ts';
import { rankedTier, type RankedTier } from './ranked-tiers.ts';

/** One player's part in one ranked match. */
export interface RankedResult {
  matchId: string;
  /** Match createdAt, epoch ms. */
  createdAt: number;
  winPlace: number;
  won: boolean;
  kills: number;
  assists: number;
  dbnos: number;
  damageDealt: number;
  /** False when the player was alive at the end. */
  died: boolean;
}

/** The running ranked stats of a (player, platform, season, mode). */
export interface RankedState {
  rankPoints: number;
  bestRankPoints: number;
  roundsPlayed: number;
  wins: number;
  top10s: number;
  kills: number;
  deaths: number;
  assists: number;
  dbnos: number;
  damageDealt: number;
  winPlaceSum: number;
  /** createdAt (epoch ms) and id of the newest match counted: the order matches are folded in. */
  lastMatchAt: number;
  lastMatchId: string;
}

/** True when `result` comes after every match `state` counts, in match order. */
export function isAfter(result: Pick<RankedResult, 'createdAt' | 'matchId'>, state: RankedState) {
  return (
    result.createdAt > state.lastMatchAt ||
    (result.createdAt === state.lastMatchAt && result.matchId > state.lastMatchId)
  );
}

/** The state after one more match (state undefined: the player's first ranked match). */
export function applyRankedResult(
  state: RankedState | undefined,
  result: RankedResult,
): RankedState {
  const before = state?.rankPoints ?? START_RANK_POINTS;
  const rankPoints = rankPointsAfter(before, result.winPlace, result.kills);
  return {
    rankPoints,
    bestRankPoints: Math.max(state?.bestRankPoints ?? 0, rankPoints),
    roundsPlayed: (state?.roundsPlayed ?? 0) + 1,
    wins: (state?.wins ?? 0) + (result.won ? 1 : 0),
    top10s: (state?.top10s ?? 0) + (result.winPlace <= 10 ? 1 : 0),
    kills: (state?.kills ?? 0) + result.kills,
    deaths: (state?.deaths ?? 0) + (result.died ? 1 : 0),
    assists: (state?.assists ?? 0) + result.assists,
    dbnos: (state?.dbnos ?? 0) + result.dbnos,
    damageDealt: (state?.damageDealt ?? 0) + result.damageDealt,
    winPlaceSum: (state?.winPlaceSum ?? 0) + result.winPlace,
    lastMatchAt: result.createdAt,
    lastMatchId: result.matchId,
  };
}

/** Match order: createdAt, then match id. */
export function compareRankedResults(
  a: Pick<RankedResult, 'createdAt' | 'matchId'>,
  b: Pick<RankedResult, 'createdAt' | 'matchId'>,
): number {
  return a.createdAt - b.createdAt || (a.matchId < b.matchId ? -1 : a.matchId > b.matchId ? 1 : 0);
}

/** The state of a whole sequence of matches, folded in match order whatever order they come in. */
export function foldRankedResults(results: readonly RankedResult[]): RankedState | undefined {
  let state: RankedState | undefined;
  for (const result of [...results].sort(compareRankedResults)) {
    state = applyRankedResult(state, result);
  }
  return state;
}

/** `RankedGameModeStats` (REFERENCE §4.4), members in the order the real service sends them. */
export interface RankedGameModeStats {
  currentTier: RankedTier;
  currentRankPoint: number;
  bestTier: RankedTier;
  bestRankPoint: number;
  roundsPlayed: number;
  avgRank: number;
  avgSurvivalTime: number;
  top10Ratio: number;
  winRatio: number;
  assists: number;
  wins: number;
  kda: number;
  kdr: number;
  avgKill: number;
  kills: number;
  deaths: number;
  roundMostKills: number;
  longestKill: number;
  headshotKills: number;
  headshotKillRatio: number;
  damageDealt: number;
  dBNOs: number;
  reviveRatio: number;
  revives: number;
  heals: number;
  boosts: number;
  weaponsAcquired: number;
  teamKills: number;
  playTime: number;
  killStreak: number;
}

const ratio = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);

/** A state as the `RankedGameModeStats` object, every deprecated member present and 0. */
export function rankedGameModeStats(state: RankedState): RankedGameModeStats {
  const rounds = state.roundsPlayed;
  return {
    currentTier: rankedTier(state.rankPoints),
    currentRankPoint: state.rankPoints,
    bestTier: rankedTier(state.bestRankPoints),
    bestRankPoint: state.bestRankPoints,
    roundsPlayed: rounds,
    avgRank: ratio(state.winPlaceSum, rounds),
    avgSurvivalTime: 0,
    top10Ratio: ratio(state.top10s, rounds),
    winRatio: ratio(state.wins, rounds),
    assists: state.assists,
    wins: state.wins,
    kda: (state.kills + state.assists) / Math.max(1, state.deaths),
    kdr: 0,
    avgKill: ratio(state.kills, rounds),
    kills: state.kills,
    deaths: state.deaths,
    roundMostKills: 0,
    longestKill: 0,
    headshotKills: 0,
    headshotKillRatio: 0,
    damageDealt: state.damageDealt,
    dBNOs: state.dbnos,
    reviveRatio: 0,
    revives: 0,
    heals: 0,
    boosts: 0,
    weaponsAcquired: 0,
    teamKills: 0,
    playTime: 0,
    killStreak: 0,
  };
}
