/**
 * Hot drops: landing where the fight starts at once. A player's landing is a hot drop when at
 * least HOT_DROP_MIN_ENEMIES players (or bots) of other teams land within HOT_DROP_RADIUS_METRES
 * of it, measured on the map's plane. Only each character's first landing of the match counts
 * (LogParachuteLanding; a redeploy lands again but is no drop into the fight).
 */

export const HOT_DROP_RADIUS_METRES = 300;
export const HOT_DROP_MIN_ENEMIES = 3;

/** A first landing; x and y in centimetres, as telemetry locations are. */
export interface Landing {
  accountId: string;
  teamId: number;
  x: number;
  y: number;
}

/** The account ids whose landing was a hot drop. Quadratic in landings (≤ ~100 per match). */
export function hotDropLandings(landings: readonly Landing[]): Set<string> {
  const radiusCm = HOT_DROP_RADIUS_METRES * 100;
  const limit = radiusCm * radiusCm;
  const hot = new Set<string>();
  for (const landing of landings) {
    let enemies = 0;
    for (const other of landings) {
      if (other.teamId === landing.teamId) continue;
      const dx = other.x - landing.x;
      const dy = other.y - landing.y;
      if (dx * dx + dy * dy <= limit && ++enemies >= HOT_DROP_MIN_ENEMIES) {
        hot.add(landing.accountId);
        break;
      }
    }
  }
  return hot;
}
