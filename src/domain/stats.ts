/**
 * Season and lifetime stats: how one participant's match stats add to the running aggregates of
 * a (player, season, game mode), and how an aggregate becomes the 35-field `GameModeStats`
 * object of season and lifetime documents.
 *
 * Every `GameModeStats` field, and how it derives from the participant stats of the player's
 * counted matches (humans, non-custom, standard game modes):
 *
 * | field | derivation |
 * |---|---|
 * | `assists`, `boosts`, `damageDealt`, `headshotKills`, `heals`, `kills`, `revives`, `rideDistance`, `roadKills`, `swimDistance`, `teamKills`, `timeSurvived`, `vehicleDestroys`, `walkDistance`, `weaponsAcquired` | sum of the participant stat of the same name |
 * | `dBNOs` | sum of `DBNOs` |
 * | `roundsPlayed` | number of matches |
 * | `wins` | matches whose roster won |
 * | `losses` | matches whose roster did not win (so `wins + losses = roundsPlayed`) |
 * | `top10s` | matches with `winPlace` ≤ 10 |
 * | `suicides` | matches with `deathType` `suicide` |
 * | `longestKill` | maximum `longestKill` |
 * | `longestTimeSurvived`, `mostSurvivalTime` | maximum `timeSurvived` (the two are always equal) |
 * | `maxKillStreaks` | maximum `killStreaks` |
 * | `roundMostKills` | maximum `kills` |
 * | `days` | distinct UTC days with a match |
 * | `dailyKills`, `dailyWins` | kills and wins of the matches on the UTC day of the newest match |
 * | `weeklyKills`, `weeklyWins` | the same for the Monday-based UTC week of the newest match |
 * | `killPoints`, `winPoints`, `rankPoints` | deprecated: always 0 |
 * | `rankPointsTitle` | deprecated: always `""` |
 */
import { dayNumber, weekNumber } from './time.ts';
import { isStandardGameMode } from './game-modes.ts';
import { LIFETIME, SEASON_ID_PREFIX } from './seasons.ts';

/**
 * The aggregate of one (player, season, mode), named as the `season_stats` columns are. Sums,
 * maxima and the day/week markers; `win_place_sum` backs average placement on leaderboards.
 */
export interface SeasonStatsValues {
  assists: number;
  boosts: number;
  dbnos: number;
  daily_kills: number;
  daily_wins: number;
  damage_dealt: number;
  days: number;
  headshot_kills: number;
  heals: number;
  kills: number;
  longest_kill: number;
  longest_time_survived: number;
  losses: number;
  max_kill_streaks: number;
  revives: number;
  ride_distance: number;
  road_kills: number;
  round_most_kills: number;
  rounds_played: number;
  suicides: number;
  swim_distance: number;
  team_kills: number;
  time_survived: number;
  top10s: number;
  vehicle_destroys: number;
  walk_distance: number;
  weapons_acquired: number;
  weekly_kills: number;
  weekly_wins: number;
  wins: number;
  win_place_sum: number;
  /** UTC day number of the newest counted match. */
  last_day: number;
  /** Monday-based week number of the newest counted match. */
  last_week: number;
}

/** One match's contribution; `days` is decided by whether its UTC day is new for the aggregate. */
export type SeasonStatsIncrement = Omit<SeasonStatsValues, 'days'>;
export type SeasonStatsColumn = keyof SeasonStatsValues;

/** Columns that add up over matches (`days` too, by 0 or 1). */
export const SUMMED_STAT_COLUMNS = [
  'assists',
  'boosts',
  'dbnos',
  'damage_dealt',
  'headshot_kills',
  'heals',
  'kills',
  'losses',
  'revives',
  'ride_distance',
  'road_kills',
  'rounds_played',
  'suicides',
  'swim_distance',
  'team_kills',
  'time_survived',
  'top10s',
  'vehicle_destroys',
  'walk_distance',
  'weapons_acquired',
  'wins',
  'win_place_sum',
] as const satisfies readonly SeasonStatsColumn[];

/** Columns that keep their maximum over matches. */
export const MAXED_STAT_COLUMNS = [
  'longest_kill',
  'longest_time_survived',
  'max_kill_streaks',
  'round_most_kills',
  'last_day',
  'last_week',
] as const satisfies readonly SeasonStatsColumn[];

/** Columns summed over the matches of the newest day (`last_day`) only. */
export const DAILY_STAT_COLUMNS = [
  'daily_kills',
  'daily_wins',
] as const satisfies readonly SeasonStatsColumn[];

/** Columns summed over the matches of the newest week (`last_week`) only. */
export const WEEKLY_STAT_COLUMNS = [
  'weekly_kills',
  'weekly_wins',
] as const satisfies readonly SeasonStatsColumn[];

/** A participant's stats in a match (REFERENCE §4.2 names), less `name` and `playerId`. */
export interface ParticipantCounters {
  DBNOs: number;
  assists: number;
  boosts: number;
  damageDealt: number;
  deathType: string;
  headshotKills: number;
  heals: number;
  killPlace: number;
  killStreaks: number;
  kills: number;
  longestKill: number;
  revives: number;
  rideDistance: number;
  roadKills: number;
  swimDistance: number;
  teamKills: number;
  timeSurvived: number;
  vehicleDestroys: number;
  walkDistance: number;
  weaponsAcquired: number;
  winPlace: number;
}

/** True for bot participants (`ai.<n>`): they have no player record and no stats. */
export function isBot(playerId: string): boolean {
  return playerId.startsWith('ai.');
}

/**
 * Whether a match counts toward season stats: not custom, and played in one of the six modes.
 *
 * Ranked matches (`matchType: "competitive"`) count like official ones — toward season and
 * lifetime stats and the season's match lists — besides their own ranked stats: the real
 * service names custom matches as the only matches season stats leave out (REFERENCE §1.7,
 * §3.5; spec §2), and its ranked endpoint has no match lists of its own, so the season's lists
 * are where clients find ranked matches. The match type is therefore not consulted here.
 */
export function countsTowardSeasonStats(match: {
  isCustomMatch: boolean;
  gameMode: string;
}): boolean {
  return !match.isCustomMatch && isStandardGameMode(match.gameMode);
}

/**
 * Whether a season's matches also count toward lifetime stats: seasons from the platform-shard
 * era on (pc-2018-01, playstation-01, xbox-01, console-NN). The earlier ids are
 * `<year>-<month>`, `2017-…` pre-seasons and the Xbox pre-season `xb-pre1`.
 */
export function countsTowardLifetime(seasonId: string): boolean {
  if (seasonId === LIFETIME || !seasonId.startsWith(SEASON_ID_PREFIX)) return false;
  const suffix = seasonId.slice(SEASON_ID_PREFIX.length);
  return !/^(\d{4}-\d{2}|2017-.*|xb-pre1)$/.test(suffix);
}

/**
 * One counted match of one player as an increment of its aggregates. `createdAt` (epoch ms)
 * places the match in its UTC day and week.
 */
export function seasonStatsIncrement(
  stats: ParticipantCounters,
  won: boolean,
  createdAt: number,
): SeasonStatsIncrement {
  const win = won ? 1 : 0;
  return {
    assists: stats.assists,
    boosts: stats.boosts,
    dbnos: stats.DBNOs,
    daily_kills: stats.kills,
    daily_wins: win,
    damage_dealt: stats.damageDealt,
    headshot_kills: stats.headshotKills,
    heals: stats.heals,
    kills: stats.kills,
    longest_kill: stats.longestKill,
    longest_time_survived: stats.timeSurvived,
    losses: 1 - win,
    max_kill_streaks: stats.killStreaks,
    revives: stats.revives,
    ride_distance: stats.rideDistance,
    road_kills: stats.roadKills,
    round_most_kills: stats.kills,
    rounds_played: 1,
    suicides: stats.deathType === 'suicide' ? 1 : 0,
    swim_distance: stats.swimDistance,
    team_kills: stats.teamKills,
    time_survived: stats.timeSurvived,
    top10s: stats.winPlace <= 10 ? 1 : 0,
    vehicle_destroys: stats.vehicleDestroys,
    walk_distance: stats.walkDistance,
    weapons_acquired: stats.weaponsAcquired,
    weekly_kills: stats.kills,
    weekly_wins: win,
    wins: win,
    win_place_sum: stats.winPlace,
    last_day: dayNumber(createdAt),
    last_week: weekNumber(createdAt),
  };
}

/**
 * Adds an increment to an aggregate (undefined: none yet). This is, in memory, exactly what the
 * store's upsert does in SQL: sums add, maxima keep the larger, daily and weekly columns restart
 * when the increment is from a newer day or week, add on the same one and ignore an older one
 * (matches may be ingested out of order). `newDay` says whether the match's UTC day was not yet
 * counted for this aggregate.
 */
export function mergeSeasonStats(
  current: SeasonStatsValues | undefined,
  increment: SeasonStatsIncrement,
  newDay: boolean,
): SeasonStatsValues {
  if (current === undefined) return { ...increment, days: newDay ? 1 : 0 };
  const merged: SeasonStatsValues = { ...current, days: current.days + (newDay ? 1 : 0) };
  for (const column of SUMMED_STAT_COLUMNS) merged[column] = current[column] + increment[column];
  for (const column of MAXED_STAT_COLUMNS)
    merged[column] = Math.max(current[column], increment[column]);
  for (const column of DAILY_STAT_COLUMNS) {
    merged[column] = periodSum(
      current.last_day,
      increment.last_day,
      current[column],
      increment[column],
    );
  }
  for (const column of WEEKLY_STAT_COLUMNS) {
    merged[column] = periodSum(
      current.last_week,
      increment.last_week,
      current[column],
      increment[column],
    );
  }
  return merged;
}

function periodSum(currentPeriod: number, period: number, current: number, added: number): number {
  if (period > currentPeriod) return added;
  return period === currentPeriod ? current + added : current;
}

/** The `GameModeStats` object of season and lifetime documents (REFERENCE §4.1). */
export interface GameModeStats {
  assists: number;
  boosts: number;
  dBNOs: number;
  dailyKills: number;
  dailyWins: number;
  damageDealt: number;
  days: number;
  headshotKills: number;
  heals: number;
  killPoints: number;
  kills: number;
  longestKill: number;
  longestTimeSurvived: number;
  losses: number;
  maxKillStreaks: number;
  mostSurvivalTime: number;
  rankPoints: number;
  rankPointsTitle: string;
  revives: number;
  rideDistance: number;
  roadKills: number;
  roundMostKills: number;
  roundsPlayed: number;
  suicides: number;
  swimDistance: number;
  teamKills: number;
  timeSurvived: number;
  top10s: number;
  vehicleDestroys: number;
  walkDistance: number;
  weaponsAcquired: number;
  weeklyKills: number;
  weeklyWins: number;
  winPoints: number;
  wins: number;
}

/** The 35 `GameModeStats` keys in byte-wise (ASCII) order, the order the real service emits. */
export const GAME_MODE_STATS_KEYS: readonly (keyof GameModeStats)[] = Object.freeze([
  'assists',
  'boosts',
  'dBNOs',
  'dailyKills',
  'dailyWins',
  'damageDealt',
  'days',
  'headshotKills',
  'heals',
  'killPoints',
  'kills',
  'longestKill',
  'longestTimeSurvived',
  'losses',
  'maxKillStreaks',
  'mostSurvivalTime',
  'rankPoints',
  'rankPointsTitle',
  'revives',
  'rideDistance',
  'roadKills',
  'roundMostKills',
  'roundsPlayed',
  'suicides',
  'swimDistance',
  'teamKills',
  'timeSurvived',
  'top10s',
  'vehicleDestroys',
  'walkDistance',
  'weaponsAcquired',
  'weeklyKills',
  'weeklyWins',
  'winPoints',
  'wins',
]);

/** Integer columns read back as integers whatever numeric form the database returns. */
const int = (value: number | string | bigint | undefined): number => Math.round(Number(value ?? 0));
const num = (value: number | string | bigint | undefined): number => Number(value ?? 0);

/**
 * An aggregate row (or undefined for a mode never played: all zeros) as `GameModeStats`, keys in
 * byte-wise order. Extra row members (keys, `updated_at`) are ignored.
 */
export function gameModeStatsFromRow(row: Partial<SeasonStatsValues> | undefined): GameModeStats {
  const r = row ?? {};
  const longestTimeSurvived = num(r.longest_time_survived);
  return {
    assists: int(r.assists),
    boosts: int(r.boosts),
    dBNOs: int(r.dbnos),
    dailyKills: int(r.daily_kills),
    dailyWins: int(r.daily_wins),
    damageDealt: num(r.damage_dealt),
    days: int(r.days),
    headshotKills: int(r.headshot_kills),
    heals: int(r.heals),
    killPoints: 0,
    kills: int(r.kills),
    longestKill: num(r.longest_kill),
    longestTimeSurvived,
    losses: int(r.losses),
    maxKillStreaks: int(r.max_kill_streaks),
    mostSurvivalTime: longestTimeSurvived,
    rankPoints: 0,
    rankPointsTitle: '',
    revives: int(r.revives),
    rideDistance: num(r.ride_distance),
    roadKills: int(r.road_kills),
    roundMostKills: int(r.round_most_kills),
    roundsPlayed: int(r.rounds_played),
    suicides: int(r.suicides),
    swimDistance: num(r.swim_distance),
    teamKills: int(r.team_kills),
    timeSurvived: num(r.time_survived),
    top10s: int(r.top10s),
    vehicleDestroys: int(r.vehicle_destroys),
    walkDistance: num(r.walk_distance),
    weaponsAcquired: int(r.weapons_acquired),
    weeklyKills: int(r.weekly_kills),
    weeklyWins: int(r.weekly_wins),
    winPoints: 0,
    wins: int(r.wins),
  };
}
