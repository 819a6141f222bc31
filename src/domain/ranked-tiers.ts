/**
 * Ranked tiers and sub-tiers from rank points (ENUMS §5: Bronze … Diamond with sub-tiers, then
 * Master and Survivor, sub-tier "1"; sub-tier 1 is the best of a tier).
 *
 * The thresholds follow the real ladder as its 2026 leaderboards show it (Gold 1 from 2100,
 * Platinum 2200–2599, Crystal 2600–2999, Diamond 3000–3399, Master from 3400, each sub-tier 100
 * points wide):
 *
 * | points | tier and sub-tiers |
 * |---|---|
 * | 0–999 | Bronze 5 (the floor) |
 * | 1000–1399 | Bronze 4, 3, 2, 1 |
 * | 1400–1799 | Silver 4 … 1 |
 * | 1800–2199 | Gold 4 … 1 |
 * | 2200–2599 | Platinum 4 … 1 |
 * | 2600–2999 | Crystal 4 … 1 |
 * | 3000–3399 | Diamond 4 … 1 |
 * | 3400–3699 | Master 1 |
 * | 3700 and more | Survivor 1 |
 *
 * The real service names the top 500 Master players of a region Survivor; here a player's tier
 * depends on their own points only (so it is the same on every request and every instance), and
 * 3700 sits between the highest Master (3676) and the Survivor (3748) the real leaderboard shows.
 */

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
export type TierName = (typeof TIERS)[number];

/** A tier as documents show it: `subTier` is a string digit, "1" the best. */
export interface RankedTier {
  tier: TierName;
  subTier: string;
}

/** Lowest points of Bronze 4; everything below is Bronze 5. */
export const BRONZE_FLOOR_POINTS = 1000;
/** Points of one sub-tier, and sub-tiers of each tier from Bronze to Diamond. */
export const SUB_TIER_POINTS = 100;
export const SUB_TIERS_PER_TIER = 4;
export const MASTER_POINTS = 3400;
export const SURVIVOR_POINTS = 3700;

/** The tier of a rank point total. */
export function rankedTier(points: number): RankedTier {
  if (points >= SURVIVOR_POINTS) return { tier: 'Survivor', subTier: '1' };
  if (points >= MASTER_POINTS) return { tier: 'Master', subTier: '1' };
  if (points < BRONZE_FLOOR_POINTS) return { tier: 'Bronze', subTier: '5' };
  const step = Math.floor((points - BRONZE_FLOOR_POINTS) / SUB_TIER_POINTS);
  const tier = TIERS[Math.floor(step / SUB_TIERS_PER_TIER)]!;
  return { tier, subTier: String(SUB_TIERS_PER_TIER - (step % SUB_TIERS_PER_TIER)) };
}
