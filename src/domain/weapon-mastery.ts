/**
 * Weapon mastery (REFERENCE §3.14): what one weapon did for one player in one match, how that
 * adds up over a career, and the XP, level and tier it earns.
 *
 * Credit, from the match's telemetry (src/ingest/mastery-telemetry.ts applies it):
 * - `Kills`: the player is the `killer` of a LogPlayerKillV2 (the kill credit, usually the one
 *   who knocked the victim); the weapon is `killerDamageInfo.damageCauserName`.
 * - `Defeats`: the player took the victim out for good — the `finisher`, or the `dBNOMaker`
 *   when nobody finished a knocked victim (bled out, team wiped); the weapon and distance are
 *   those of the matching DamageInfo. LongestDefeat and LongRangeDefeats measure these.
 * - `Groggies`: LogPlayerMakeGroggy attacker. `DamagePlayer` and `HeadShots`: every
 *   LogPlayerTakeDamage the player's weapon dealt to another team's player or bot (HP, and hits
 *   with `damageReason: HeadShot` — hits, not kills, as the real service counts them).
 * - Team kills, self-inflicted damage and suicides credit nothing. In telemetry without
 *   LogPlayerKillV2 (older tournament files), LogPlayerKill (v1) credits its `killer` with both
 *   the kill and the defeat; files with both tell each death twice, and only V2 counts.
 */

/** Which per-kind total a match adds to; every counted match also adds to StatsTotal. */
export type WeaponMatchKind = 'official' | 'competitive' | 'other';
export const WEAPON_MATCH_KINDS: readonly WeaponMatchKind[] = ['official', 'competitive', 'other'];

/**
 * The kind a match's weapon mastery counts as, or null when it does not count: custom matches and
 * training (the Range) earn no mastery. `official` fills OfficialStatsTotal, `competitive`
 * (ranked) CompetitiveStatsTotal; arcade, event and other modes only StatsTotal.
 */
export function weaponMatchKind(match: {
  matchType: string;
  isCustomMatch: boolean;
}): WeaponMatchKind | null {
  if (match.isCustomMatch || match.matchType === 'custom' || match.matchType === 'training')
    return null;
  if (match.matchType === 'official' || match.matchType === 'competitive') return match.matchType;
  return 'other';
}

/** A defeat from this far (metres, inclusive) is a long-range defeat. */
export const LONG_RANGE_DEFEAT_METRES = 100;

/** One weapon in one player's match. Distances in metres, damage in HP. */
export interface WeaponGame {
  kills: number;
  defeats: number;
  groggies: number;
  headShots: number;
  damagePlayer: number;
  longRangeDefeats: number;
  longestDefeat: number;
  longestKill: number;
}

export function emptyWeaponGame(): WeaponGame {
  return {
    kills: 0,
    defeats: 0,
    groggies: 0,
    headShots: 0,
    damagePlayer: 0,
    longRangeDefeats: 0,
    longestDefeat: 0,
    longestKill: 0,
  };
}

/** A weapon's career in one kind of match: sums, longest distances, per-game maxima and XP. */
export interface WeaponTotals extends WeaponGame {
  xp: number;
  mostKills: number;
  mostDefeats: number;
  mostGroggies: number;
  mostHeadShots: number;
  mostDamagePlayer: number;
}

/** XP of one weapon in one match (an integer; see weaponXp). */
export const WEAPON_XP = Object.freeze({
  perDamage: 20,
  perGroggy: 100,
  perKill: 100,
  perDefeat: 200,
  perHeadShot: 50,
  perLongRangeDefeat: 200,
});

/**
 * XP a weapon earns in one match: 20 per HP of damage to players, 100 per knock, 100 per kill,
 * 200 per defeat, 50 per headshot hit and 200 more per long-range defeat, rounded to an integer.
 * (Damage dominates, as on the real service, whose recorded XP is close to 20–24 × damage.)
 */
export function weaponXp(game: WeaponGame): number {
  return Math.round(
    WEAPON_XP.perDamage * game.damagePlayer +
      WEAPON_XP.perGroggy * game.groggies +
      WEAPON_XP.perKill * game.kills +
      WEAPON_XP.perDefeat * game.defeats +
      WEAPON_XP.perHeadShot * game.headShots +
      WEAPON_XP.perLongRangeDefeat * game.longRangeDefeats,
  );
}

/** What one match adds to its weapon's totals: its counts, its values as the maxima, its XP. */
export function weaponGameTotals(game: WeaponGame): WeaponTotals {
  // Field by field: spreading objects whose fields changed representation is a slow path.
  return {
    kills: game.kills,
    defeats: game.defeats,
    groggies: game.groggies,
    headShots: game.headShots,
    damagePlayer: game.damagePlayer,
    longRangeDefeats: game.longRangeDefeats,
    longestDefeat: game.longestDefeat,
    longestKill: game.longestKill,
    xp: weaponXp(game),
    mostKills: game.kills,
    mostDefeats: game.defeats,
    mostGroggies: game.groggies,
    mostHeadShots: game.headShots,
    mostDamagePlayer: game.damagePlayer,
  };
}

/** Two totals of one weapon as one (StatsTotal is the merge of the per-kind totals). */
export function mergeWeaponTotals(a: WeaponTotals, b: WeaponTotals): WeaponTotals {
  return {
    xp: a.xp + b.xp,
    kills: a.kills + b.kills,
    defeats: a.defeats + b.defeats,
    groggies: a.groggies + b.groggies,
    headShots: a.headShots + b.headShots,
    damagePlayer: a.damagePlayer + b.damagePlayer,
    longRangeDefeats: a.longRangeDefeats + b.longRangeDefeats,
    longestDefeat: Math.max(a.longestDefeat, b.longestDefeat),
    longestKill: Math.max(a.longestKill, b.longestKill),
    mostKills: Math.max(a.mostKills, b.mostKills),
    mostDefeats: Math.max(a.mostDefeats, b.mostDefeats),
    mostGroggies: Math.max(a.mostGroggies, b.mostGroggies),
    mostHeadShots: Math.max(a.mostHeadShots, b.mostHeadShots),
    mostDamagePlayer: Math.max(a.mostDamagePlayer, b.mostDamagePlayer),
  };
}

export function emptyWeaponTotals(): WeaponTotals {
  return weaponGameTotals(emptyWeaponGame());
}

export const MAX_WEAPON_LEVEL = 100;

/**
 * XP needed to reach a level: level 1 at 0, then each level costs 2,000 XP plus 150 per level
 * already gained (2,000 for level 2, 2,150 for level 3, …), so level 100 needs 925,650 XP.
 */
export function weaponLevelXp(level: number): number {
  const gained = level - 1;
  return 2000 * gained + 75 * gained * (gained - 1);
}

/** The level (1–100) an XP total has reached. */
export function weaponLevel(xp: number): number {
  let level = 1;
  while (level < MAX_WEAPON_LEVEL && weaponLevelXp(level + 1) <= xp) level++;
  return level;
}

/**
 * The tier (1–6) of a level: a new tier every 20 levels (20, 40, 60, 80), and tier 6 for the
 * mastered weapon at level 100 — recorded documents show tier 6 only at the XP cap.
 */
export function weaponTier(level: number): number {
  return Math.min(6, 1 + Math.floor(level / 20));
}

/** One weapon of a player's career: its totals per kind of match and its medal counts. */
export interface WeaponCareer {
  weaponId: string;
  kinds: ReadonlyMap<WeaponMatchKind, WeaponTotals>;
  medals: ReadonlyArray<{ medalId: string; count: number }>;
}

/** A player's weapons (only those used) and the newest match that added to them. */
export interface WeaponMasteryCareer {
  /** '' before any. */
  latestMatchId: string;
  /** That match's createdAt (epoch ms), null before any. */
  latestMatchAt: number | null;
  weapons: readonly WeaponCareer[];
}
