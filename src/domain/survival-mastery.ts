/**
 * Survival mastery (REFERENCE §3.15): a player's per-match survival values, their career totals,
 * averages, bests and last values, and the XP, level and tier they earn.
 *
 * Half the values come from the participant stats every match has, half from telemetry:
 *
 * | member | per match | source |
 * |---|---|---|
 * | damageDealt | participant `damageDealt` (HP) | participant |
 * | distanceOnFoot, distanceByVehicle, distanceBySwimming | `walkDistance`, `rideDistance`, `swimDistance` (m) | participant |
 * | distanceTotal | the three distances summed (m) | participant |
 * | teammatesRevived | participant `revives` (revives the player performed) | participant |
 * | timeSurvived | participant `timeSurvived` (s) | participant |
 * | position | participant `winPlace`; careerBest is the lowest, no total shown | participant |
 * | top10 | 1 when `winPlace` ≤ 10; total only | participant |
 * | healed | HP healed (LogHeal `healAmount`) | telemetry |
 * | revived | times the player was revived (LogPlayerRevive victim) | telemetry |
 * | damageTaken | HP of every LogPlayerTakeDamage the player suffered, from any source | telemetry |
 * | airDropsCalled | flare guns fired (LogPlayerUseFlareGun) | telemetry |
 * | throwablesThrown | LogPlayerUseThrowable | telemetry |
 * | enemyCratesLooted | other teams' death crates looted from (distinct LogItemPickupFromLootBox creators) | telemetry |
 * | uniqueItemsLooted | distinct item ids picked up (ground, crates, care packages, trunks) | telemetry |
 * | hotDropLandings | 1 when the first landing was a hot drop (hot-drops.ts); total only | telemetry |
 *
 * Averages divide by the matches that gave the value: every counted match for participant
 * values, the counted matches with telemetry for telemetry values.
 */

export const SURVIVAL_STATS = [
  { key: 'airDropsCalled', source: 'telemetry', shows: 'all' },
  { key: 'damageDealt', source: 'participant', shows: 'all' },
  { key: 'damageTaken', source: 'telemetry', shows: 'all' },
  { key: 'distanceBySwimming', source: 'participant', shows: 'all' },
  { key: 'distanceByVehicle', source: 'participant', shows: 'all' },
  { key: 'distanceOnFoot', source: 'participant', shows: 'all' },
  { key: 'distanceTotal', source: 'participant', shows: 'all' },
  { key: 'healed', source: 'telemetry', shows: 'all' },
  { key: 'hotDropLandings', source: 'telemetry', shows: 'total' },
  { key: 'enemyCratesLooted', source: 'telemetry', shows: 'all' },
  { key: 'uniqueItemsLooted', source: 'telemetry', shows: 'all' },
  { key: 'position', source: 'participant', shows: 'noTotal' },
  { key: 'revived', source: 'telemetry', shows: 'all' },
  { key: 'teammatesRevived', source: 'participant', shows: 'all' },
  { key: 'timeSurvived', source: 'participant', shows: 'all' },
  { key: 'throwablesThrown', source: 'telemetry', shows: 'all' },
  { key: 'top10', source: 'participant', shows: 'total' },
] as const;

type StatSpec = (typeof SURVIVAL_STATS)[number];
export type SurvivalStatKey = StatSpec['key'];
export type ParticipantStatKey = Extract<StatSpec, { source: 'participant' }>['key'];
export type TelemetryStatKey = Extract<StatSpec, { source: 'telemetry' }>['key'];

export const PARTICIPANT_STAT_KEYS = SURVIVAL_STATS.filter((s) => s.source === 'participant').map(
  (s) => s.key,
) as ParticipantStatKey[];
export const TELEMETRY_STAT_KEYS = SURVIVAL_STATS.filter((s) => s.source === 'telemetry').map(
  (s) => s.key,
) as TelemetryStatKey[];

/** The stat whose best is the lowest value (1st place beats 2nd). */
export const LOWEST_IS_BEST: SurvivalStatKey = 'position';

/**
 * Whether a match counts toward survival mastery: battle royale play — not custom matches, not
 * training, and not arcade modes (team deathmatch), where nobody survives to a placement.
 */
export function countsTowardSurvivalMastery(match: {
  matchType: string;
  isCustomMatch: boolean;
}): boolean {
  return !match.isCustomMatch && !['custom', 'training', 'arcade'].includes(match.matchType);
}

/** The participant stats survival mastery reads. */
export interface SurvivalParticipantStats {
  walkDistance: number;
  rideDistance: number;
  swimDistance: number;
  damageDealt: number;
  revives: number;
  timeSurvived: number;
  winPlace: number;
}

/** A match's participant-derived values. */
export function participantSurvivalValues(
  stats: SurvivalParticipantStats,
): Record<ParticipantStatKey, number> {
  return {
    damageDealt: stats.damageDealt,
    distanceBySwimming: stats.swimDistance,
    distanceByVehicle: stats.rideDistance,
    distanceOnFoot: stats.walkDistance,
    distanceTotal: stats.walkDistance + stats.rideDistance + stats.swimDistance,
    position: stats.winPlace,
    teammatesRevived: stats.revives,
    timeSurvived: stats.timeSurvived,
    top10: stats.winPlace <= 10 ? 1 : 0,
  };
}

/**
 * XP of one match, in two parts so telemetry attached later adds its part then. Participant
 * part: 1 per 10 s survived, 1 per 20 m travelled, 25 per teammate revived, 100 for a win or 50
 * for another top-10 place. Telemetry part: 1 per 5 HP healed, 10 per airdrop called, 10 per
 * enemy crate looted, 2 per unique item looted, 5 per throwable thrown, 25 for a hot drop.
 * Each part is rounded down to an integer.
 */
export function participantSurvivalXp(values: Record<ParticipantStatKey, number>): number {
  const placement = values.position === 1 ? 100 : values.top10 ? 50 : 0;
  return Math.floor(
    values.timeSurvived / 10 + values.distanceTotal / 20 + 25 * values.teammatesRevived + placement,
  );
}

export function telemetrySurvivalXp(values: Record<TelemetryStatKey, number>): number {
  return Math.floor(
    values.healed / 5 +
      10 * values.airDropsCalled +
      10 * values.enemyCratesLooted +
      2 * values.uniqueItemsLooted +
      5 * values.throwablesThrown +
      25 * values.hotDropLandings,
  );
}

export const MAX_SURVIVAL_LEVEL = 500;

/**
 * XP needed to reach a level: level 1 at 0, then each level costs 2,000 XP plus 20 per level
 * already gained, so level 500 needs 3,483,020 XP (some 9,000 matches).
 */
export function survivalLevelXp(level: number): number {
  const gained = level - 1;
  return 2000 * gained + 10 * gained * (gained - 1);
}

/** The level (1–500) an XP total has reached. */
export function survivalLevel(xp: number): number {
  let level = 1;
  while (level < MAX_SURVIVAL_LEVEL && survivalLevelXp(level + 1) <= xp) level++;
  return level;
}

/** The tier (1–5) of a level: one tier per 100 levels. */
export function survivalTier(level: number): number {
  return 1 + Math.floor((level - 1) / 100);
}

/** A stat's stored career values. */
export interface SurvivalStatTotals {
  total: number;
  best: number;
  last: number;
}

/** A stat as the document shows it; `total` left out where the real payload has none. */
export interface SurvivalStatSummary {
  total: number;
  average: number;
  careerBest: number;
  lastMatchValue: number;
}

/** Total, average over the matches that gave the stat, best and last value of one stat. */
export function survivalStatSummary(
  key: SurvivalStatKey,
  totals: SurvivalStatTotals,
  matches: { played: number; withTelemetry: number },
): SurvivalStatSummary {
  const source = SURVIVAL_STATS.find((s) => s.key === key)!.source;
  const count = source === 'participant' ? matches.played : matches.withTelemetry;
  return {
    total: totals.total,
    average: count === 0 ? 0 : totals.total / count,
    careerBest: totals.best,
    lastMatchValue: totals.last,
  };
}

/** A player's survival career on one platform. */
export interface SurvivalCareer {
  xp: number;
  matchesPlayed: number;
  /** Of them, the matches whose telemetry was read. */
  telemetryMatches: number;
  /** '' before any. */
  lastMatchId: string;
  /** That match's createdAt, epoch ms. */
  lastMatchAt: number;
  stats: Readonly<Record<SurvivalStatKey, SurvivalStatTotals>>;
}
