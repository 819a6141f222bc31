/**
 * The rank point rating of ranked play: how one ranked match moves a player's points.
 *
 * Every player starts a season (per platform and ranked mode) at START_RANK_POINTS. After each
 * ranked match:
 *
 *     points' = max(0, points + placementPoints(winPlace) + killPoints(kills))
 *
 * - placementPoints(p) = round(50 − 75 · log2(min(p, 16)) / 4): +50 for a win, +31 for 2nd,
 *   +13 for 4th, −6 for 8th, −25 for 16th and every place below it. It never rises as the
 *   placement gets worse, so a better placement never earns fewer points (with the same kills).
 *   The logarithm makes the top places worth the most, as the real ladder does; 16 is the
 *   number of squads in a ranked lobby.
 * - killPoints(k) = 5 · min(k, 8): kills add at most 40, so a hot drop never outweighs placing.
 * - Points are integers and never fall below 0.
 *
 * Over a lobby of 16 squads the placement points average −2 and a player's kills about +5, so
 * an average player drifts up slowly while the best climb several tiers in a season.
 */

/** Rank points of every player before their first ranked match of a season. */
export const START_RANK_POINTS = 1500;
/** Placements at or below this one all score as this one (the size of a ranked lobby). */
export const LOWEST_SCORED_PLACE = 16;
export const WIN_POINTS = 50;
/** Points between a win and LOWEST_SCORED_PLACE: 50 − 75 = −25. */
export const PLACEMENT_SPREAD = 75;
export const POINTS_PER_KILL = 5;
export const MAX_SCORED_KILLS = 8;

/** Points a placement (winPlace, 1 = won) earns; non-increasing in the placement. */
export function placementPoints(winPlace: number): number {
  const place = Math.min(Math.max(1, Math.floor(winPlace)), LOWEST_SCORED_PLACE);
  return Math.round(
    WIN_POINTS - (PLACEMENT_SPREAD * Math.log2(place)) / Math.log2(LOWEST_SCORED_PLACE),
  );
}

/** Points the kills of a match earn: POINTS_PER_KILL each, at most MAX_SCORED_KILLS of them. */
export function killPoints(kills: number): number {
  return POINTS_PER_KILL * Math.min(Math.max(0, Math.floor(kills)), MAX_SCORED_KILLS);
}

/** A player's rank points after a ranked match they entered with `points`; never below 0. */
export function rankPointsAfter(points: number, winPlace: number, kills: number): number {
  return Math.max(0, points + placementPoints(winPlace) + killPoints(kills));
}
