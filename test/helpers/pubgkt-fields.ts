/**
 * The fields pubgkt (test/clients/pubgkt.test.ts) reads with its throwing `requiredInt` and
 * `requiredDouble` helpers, by the type it reads them as: an Int field must hold an integer,
 * a Double field any number.
 */

/** Season, lifetime and batch `gameModeStats.<mode>` read as Int (23 of the 31 it reads). */
export const INT_MODE_STATS = [
  'assists',
  'boosts',
  'dBNOs',
  'dailyKills',
  'dailyWins',
  'days',
  'headshotKills',
  'heals',
  'kills',
  'losses',
  'maxKillStreaks',
  'revives',
  'roadKills',
  'roundMostKills',
  'roundsPlayed',
  'suicides',
  'teamKills',
  'top10s',
  'vehicleDestroys',
  'weaponsAcquired',
  'weeklyKills',
  'weeklyWins',
  'wins',
] as const;

/** The 8 `gameModeStats.<mode>` fields read as Double (metres, seconds, damage). */
export const NUMBER_MODE_STATS = [
  'damageDealt',
  'longestKill',
  'longestTimeSurvived',
  'mostSurvivalTime',
  'rideDistance',
  'swimDistance',
  'timeSurvived',
  'walkDistance',
] as const;

/** Match participant stats read as Int; `timeSurvived` (seconds) among them. */
export const INT_PARTICIPANT_STATS = [
  'DBNOs',
  'assists',
  'boosts',
  'headshotKills',
  'heals',
  'killPlace',
  'killStreaks',
  'kills',
  'revives',
  'roadKills',
  'teamKills',
  'timeSurvived',
  'vehicleDestroys',
  'weaponsAcquired',
  'winPlace',
] as const;

/** Match participant stats read as Double. */
export const NUMBER_PARTICIPANT_STATS = [
  'damageDealt',
  'longestKill',
  'rideDistance',
  'swimDistance',
  'walkDistance',
] as const;

/** The `stats` objects of survival mastery it requires, `uniqueItemsLooted` included. */
export const SURVIVAL_STATS = [
  'airDropsCalled',
  'damageDealt',
  'damageTaken',
  'distanceBySwimming',
  'distanceByVehicle',
  'distanceOnFoot',
  'distanceTotal',
  'healed',
  'hotDropLandings',
  'enemyCratesLooted',
  'uniqueItemsLooted',
  'position',
  'revived',
  'teammatesRevived',
  'timeSurvived',
  'throwablesThrown',
  'top10',
] as const;
