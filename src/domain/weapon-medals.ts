/**
 * Weapon mastery medals (the `Medals` of REFERENCE §3.14, ids from the official medal
 * dictionary) as a match's telemetry shows the feat. Every medal goes to the weapon that made
 * it. A "defeat" is as in weapon-mastery.ts: the finisher's (or, unfinished, the knocker's).
 *
 * | medal | awarded for |
 * |---|---|
 * | MedalFirstBlood | the match's first defeat, to whoever made it |
 * | MedalLastManStanding | the match's last defeat, when a member of the winning team made it |
 * | MedalDeadeye | each defeat whose final hit was a headshot |
 * | MedalAssassin | each headshot defeat of a victim who had not damaged the defeater this match |
 * | MedalLongshot | each defeat from 200 m or more |
 * | MedalDoubleKill, MedalTripleKill, MedalQuadKill | a run of 2, 3, 4+ defeats with one weapon, each within 10 s of the previous (one medal per run) |
 * | MedalFrenzy, MedalRampage | 5, 10 defeats with one weapon in a match (once each per match) |
 * | MedalPunisher | 300 HP of damage to players with one weapon in a match (once per match) |
 * | MedalAnnihilation | every member of an enemy team of two or more defeated by the player, to the weapon of the last |
 */
import type { WeaponGame } from './weapon-mastery.ts';

export const MEDAL_IDS = [
  'MedalAnnihilation',
  'MedalAssassin',
  'MedalDeadeye',
  'MedalDoubleKill',
  'MedalFirstBlood',
  'MedalFrenzy',
  'MedalLastManStanding',
  'MedalLongshot',
  'MedalPunisher',
  'MedalQuadKill',
  'MedalRampage',
  'MedalTripleKill',
] as const;
export type MedalId = (typeof MEDAL_IDS)[number];

export const RAPID_SUCCESSION_MS = 10_000;
export const LONGSHOT_METRES = 200;
export const PUNISHER_DAMAGE = 300;
export const FRENZY_DEFEATS = 5;
export const RAMPAGE_DEFEATS = 10;

/** One defeat of the match, by anyone with an account (players and bots). */
export interface Defeat {
  /** Epoch ms. */
  at: number;
  accountId: string;
  weaponId: string;
  headShot: boolean;
  metres: number;
  victimId: string;
  victimTeamId: number;
  /** True when the victim had dealt the defeater no damage this match. */
  unhurt: boolean;
}

export interface MedalAward {
  accountId: string;
  weaponId: string;
  medalId: MedalId;
  count: number;
}

export interface MedalMatch {
  /** Every defeat of the match; only those of players in `games` earn medals. */
  defeats: readonly Defeat[];
  /** Each tracked player's weapons in the match. */
  games: ReadonlyMap<string, ReadonlyMap<string, WeaponGame>>;
  /** Account ids of the winning team's members. */
  winners: ReadonlySet<string>;
  /** Members per team id (rosters, bots included). */
  teamSizes: ReadonlyMap<number, number>;
}

/** The medals a match awards, one entry per player, weapon and medal, in a stable order. */
export function matchMedals(match: MedalMatch): MedalAward[] {
  // No callbacks made per match: V8 keeps a closure's optimized code only while a closure made
  // from it is alive, so those were compiled again after every full collection.
  const counts = new Map<string, number>();
  const ordered = [...match.defeats].sort(byTime);
  const first = ordered[0];
  const last = ordered.at(-1);
  if (first && match.games.has(first.accountId))
    award(counts, first.accountId, first.weaponId, 'MedalFirstBlood');
  if (last && match.games.has(last.accountId) && match.winners.has(last.accountId))
    award(counts, last.accountId, last.weaponId, 'MedalLastManStanding');

  const byPlayer = new Map<string, Defeat[]>();
  for (const defeat of ordered) {
    if (!match.games.has(defeat.accountId)) continue;
    const list = byPlayer.get(defeat.accountId) ?? [];
    list.push(defeat);
    byPlayer.set(defeat.accountId, list);
    if (defeat.headShot) award(counts, defeat.accountId, defeat.weaponId, 'MedalDeadeye');
    if (defeat.headShot && defeat.unhurt)
      award(counts, defeat.accountId, defeat.weaponId, 'MedalAssassin');
    if (defeat.metres >= LONGSHOT_METRES)
      award(counts, defeat.accountId, defeat.weaponId, 'MedalLongshot');
  }
  for (const [accountId, defeats] of byPlayer) {
    for (const [weaponId, runLength] of successionRuns(defeats)) {
      if (runLength >= 2) award(counts, accountId, weaponId, multiKillMedal(runLength));
    }
    for (const weaponId of annihilations(defeats, match.teamSizes))
      award(counts, accountId, weaponId, 'MedalAnnihilation');
  }
  for (const [accountId, weapons] of match.games) {
    for (const [weaponId, game] of weapons) {
      if (game.defeats >= FRENZY_DEFEATS) award(counts, accountId, weaponId, 'MedalFrenzy');
      if (game.defeats >= RAMPAGE_DEFEATS) award(counts, accountId, weaponId, 'MedalRampage');
      if (game.damagePlayer >= PUNISHER_DAMAGE) award(counts, accountId, weaponId, 'MedalPunisher');
    }
  }
  const awards: MedalAward[] = [];
  for (const [key, count] of [...counts].sort(byKey)) {
    const [accountId, weaponId, medalId] = key.split('\n') as [string, string, MedalId];
    awards.push({ accountId, weaponId, medalId, count });
  }
  return awards;
}

function award(
  counts: Map<string, number>,
  accountId: string,
  weaponId: string,
  medalId: MedalId,
): void {
  const key = `${accountId}\n${weaponId}\n${medalId}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

const byTime = (a: Defeat, b: Defeat): number => a.at - b.at;
const byKey = ([a]: [string, number], [b]: [string, number]): number =>
  a < b ? -1 : a > b ? 1 : 0;

function multiKillMedal(runLength: number): MedalId {
  if (runLength >= 4) return 'MedalQuadKill';
  return runLength === 3 ? 'MedalTripleKill' : 'MedalDoubleKill';
}

/** Lengths of the runs of one player's defeats (in time order) per weapon. */
function successionRuns(defeats: readonly Defeat[]): Array<[string, number]> {
  const runs: Array<[string, number]> = [];
  const open = new Map<string, { length: number; lastAt: number }>();
  for (const defeat of defeats) {
    const run = open.get(defeat.weaponId);
    if (run && defeat.at - run.lastAt <= RAPID_SUCCESSION_MS) {
      run.length++;
      run.lastAt = defeat.at;
      continue;
    }
    if (run) runs.push([defeat.weaponId, run.length]);
    open.set(defeat.weaponId, { length: 1, lastAt: defeat.at });
  }
  for (const [weaponId, run] of open) runs.push([weaponId, run.length]);
  return runs;
}

/** The weapon of the last defeat of each enemy team (2+ members) one player defeated whole. */
function annihilations(
  defeats: readonly Defeat[],
  teamSizes: ReadonlyMap<number, number>,
): string[] {
  const victims = new Map<number, { ids: Set<string>; lastWeapon: string }>();
  for (const defeat of defeats) {
    const team = victims.get(defeat.victimTeamId) ?? { ids: new Set(), lastWeapon: '' };
    team.ids.add(defeat.victimId);
    team.lastWeapon = defeat.weaponId;
    victims.set(defeat.victimTeamId, team);
  }
  const weapons: string[] = [];
  for (const [teamId, team] of victims) {
    const size = teamSizes.get(teamId) ?? 0;
    if (size >= 2 && team.ids.size >= size) weapons.push(team.lastWeapon);
  }
  return weapons;
}
