/**
 * The people of a simulated match and what happens to them — fighters, hits, knocks, deaths —
 * with the small helpers the battle-royale and team-deathmatch simulations share. Times are
 * milliseconds after the match's createdAt.
 */
import type { Entrant, LobbyRoster } from './lobby.ts';
import type { Random } from './random.ts';
import { CRATE_WEAPONS, WEAPONS, WEAPON_CLASSES, type Weapon } from './weapons.ts';

export type DeathCause = 'player' | 'bluezone' | 'redzone' | 'suicide' | 'logout';

export interface Fighter extends Entrant {
  index: number;
  roster: number;
  teamId: number;
  /** The two guns the fighter carries; kills are mostly made with them. */
  loadout: readonly [Weapon, Weapon];
  landedAt: number;
  /** null: alive at the end. */
  diedAt: number | null;
  kills: number;
  teamKills: number;
  roadKills: number;
  headshotKills: number;
  dbnos: number;
  assists: number;
  revives: number;
  /** Damage (HP) dealt to enemies: the sum of the fighter's hits on other teams. */
  damage: number;
  /** Attacks numbered so far; with the fighter's slot they make match-unique attack ids. */
  attacks: number;
  killTimes: number[];
  /** Metres of the longest kill; 0 without kills. */
  longestKill: number;
  /** Relative chance to win a fight, from skill. */
  power: number;
}

/**
 * Damage one fighter did to another in one exchange: the knock, the kill, an assist's share or a
 * wound that healed. Telemetry tells it as one or more shots whose damage adds up to `damage`;
 * the last shot, at `at`, carries `attackId` (the knock's or the kill's).
 */
export interface Hit {
  at: number;
  attacker: number;
  victim: number;
  weapon: Weapon;
  /** Vehicle of a ramming; null otherwise. */
  vehicleId: string | null;
  metres: number;
  headshot: boolean;
  /** HP, a multiple of 0.25 (so sums of hits are exact). */
  damage: number;
  attackId: number;
}

export interface Knock extends Hit {
  dBNOId: number;
  revive: { at: number; reviver: number } | null;
}

export interface Death {
  at: number;
  victim: number;
  cause: DeathCause;
  /** Credited player (the finisher, or the knocker after a bleed-out); null without one. */
  killer: number | null;
  /** The shot that finished the victim; null for zone, suicide, logout and road kills. */
  hit: Hit | null;
  knock: Knock | null;
  bleedOut: boolean;
  /** Vehicle of a road kill or a crash. */
  vehicleId: string | null;
  teamKill: boolean;
  assists: number[];
  /** Damage category and causer of a suicide. */
  suicide: { category: string; causer: string } | null;
  attackId: number;
}

export interface BattleRoster {
  teamId: number;
  members: number[];
  rank: number;
}

export interface Battle {
  fighters: Fighter[];
  rosters: BattleRoster[];
  knocks: Knock[];
  /** Chronological. */
  deaths: Death[];
  /** Every hit of one fighter on another (knocks, kills, assists, wounds), chronological. */
  hits: Hit[];
  durationMs: number;
  /** LogMatchStart: the plane takes off. */
  matchStartAt: number;
  teamSize: number;
}

const GUNS = WEAPONS.filter(
  (w) =>
    w.damageTypeCategory === 'Damage_Gun' &&
    w.weaponClass !== 'pistol' &&
    !CRATE_WEAPONS.has(w.itemId),
);

/**
 * A match-unique attack id, made as the game makes them: the attacker's slot in the top byte,
 * their running attack count below (so ids never collide however many attacks there are).
 */
export function nextAttackId(f: Fighter): number {
  f.attacks++;
  return (f.index + 1) * 16_777_216 + f.attacks;
}

/** On the ground and not yet dead at `at`. */
export const alive = (f: Fighter, at: number): boolean =>
  f.landedAt < at && (f.diedAt === null || f.diedAt > at);

/** The members of `team` but fighter `except` who are alive at `at` and still at `until`. */
export function aliveMates(
  fighters: readonly Fighter[],
  team: readonly number[],
  except: number,
  at: number,
  until = at,
): number[] {
  const mates: number[] = [];
  for (const i of team)
    if (i !== except && alive(fighters[i]!, at) && alive(fighters[i]!, until)) mates.push(i);
  return mates;
}

/** A draw of an opponent with `pickOpponent`: who is eligible, and how they are weighed. */
export interface OpponentDraw {
  /** The roster drawn against: its members are not eligible. */
  roster: number;
  /** Only those on the ground and alive at this instant are eligible. */
  at: number;
  /** Only those who live to the end of the match are eligible (the final kill). */
  survivorsOnly?: boolean;
  /**
   * `even`: all alike; `power`: by their power; `killer`: by their power over the kills they
   * have already made, tripled for `streak`.
   */
  weight: 'even' | 'power' | 'killer';
  /** With `killer`: the index of the fighter on a killing streak against the roster, or -1. */
  streak?: number;
}

function eligibleOpponent(f: Fighter, draw: OpponentDraw): boolean {
  return (
    f.roster !== draw.roster && alive(f, draw.at) && (!draw.survivorsOnly || f.diedAt === null)
  );
}

function opponentWeight(f: Fighter, draw: OpponentDraw): number {
  if (draw.weight === 'even') return 1;
  if (draw.weight === 'power') return f.power;
  return (f.power * (f.index === draw.streak ? 3 : 1)) / (1 + 0.12 * f.kills);
}

/**
 * An opponent of `draw.roster` among `fighters`, with probability proportional to their weight;
 * null when none is eligible (and then no random number is drawn). Two passes, no arrays and no
 * callbacks: this runs for every death of every match.
 */
export function pickOpponent(
  random: Random,
  fighters: readonly Fighter[],
  draw: OpponentDraw,
): Fighter | null {
  let total = 0;
  for (const f of fighters) if (eligibleOpponent(f, draw)) total += opponentWeight(f, draw);
  if (total <= 0) return null;
  let r = random.next() * total;
  let last: Fighter | null = null;
  for (const f of fighters) {
    if (!eligibleOpponent(f, draw)) continue;
    last = f;
    r -= opponentWeight(f, draw);
    if (r < 0) return f;
  }
  return last;
}

/**
 * Metres of a hit with a weapon: mostly within its typical range, now and then up to its maximum.
 */
export function hitMetres(random: Random, weapon: Weapon): number {
  const [min, typical, max] = WEAPON_CLASSES[weapon.weaponClass].metres;
  const m = random.chance(0.94)
    ? min + (typical - min) * random.next() ** 1.6
    : typical + (max - typical) * random.next();
  return Math.round(m * 1000) / 1000;
}

/** Fighters for the lobby's entrants (with their loadouts), and each roster's fighter indices. */
export function makeFighters(
  random: Random,
  rosters: readonly LobbyRoster[],
): { fighters: Fighter[]; members: number[][] } {
  const fighters: Fighter[] = [];
  const members: number[][] = [];
  for (let r = 0; r < rosters.length; r++) {
    const roster = rosters[r]!;
    const team: number[] = [];
    for (const entrant of roster.members) {
      const f: Fighter = {
        playerId: entrant.playerId,
        name: entrant.name,
        skill: entrant.skill,
        player: entrant.player,
        index: fighters.length,
        roster: r,
        teamId: roster.teamId,
        loadout: [random.pick(GUNS), random.pick(GUNS)],
        landedAt: 0,
        diedAt: null,
        kills: 0,
        teamKills: 0,
        roadKills: 0,
        headshotKills: 0,
        dbnos: 0,
        assists: 0,
        revives: 0,
        damage: 0,
        attacks: 0,
        killTimes: [],
        longestKill: 0,
        power: Math.exp(0.55 * entrant.skill),
      };
      fighters.push(f);
      team.push(f.index);
    }
    members.push(team);
  }
  return { fighters, members };
}

/** A death record with every field present (one object shape for all deaths). */
export function newDeath(at: number, victim: number, cause: DeathCause, id: number): Death {
  return {
    at,
    victim,
    cause,
    killer: null,
    hit: null,
    knock: null,
    bleedOut: false,
    vehicleId: null,
    teamKill: false,
    assists: [],
    suicide: null,
    attackId: id,
  };
}

/** A knock from the hit that caused it. */
export function makeKnock(random: Random, hit: Hit, revive: Knock['revive']): Knock {
  return {
    at: hit.at,
    attacker: hit.attacker,
    victim: hit.victim,
    weapon: hit.weapon,
    vehicleId: hit.vehicleId,
    metres: hit.metres,
    headshot: hit.headshot,
    damage: hit.damage,
    attackId: hit.attackId,
    dBNOId: random.int(10_000_000, 1_000_000_000),
    revive,
  };
}
