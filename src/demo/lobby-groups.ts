/**
 * Lobby building blocks: ad-hoc groups of players for lobbies that are not matchmade, bots,
 * rosters of a mode's size with the odd short one real lobbies have, and team ids numbered as
 * the real service numbers them.
 */
import type { Entrant, LobbyRoster } from './lobby.ts';
import type { Matchmaking } from './matchmaking.ts';
import { botName } from './names.ts';
import type { Random } from './random.ts';
import type { MatchSlot } from './schedule.ts';

/**
 * Players for a lobby that is not matchmade: friends of the region, then anyone on the platform.
 */
export function adHoc(
  random: Random,
  slot: MatchSlot,
  mm: Matchmaking,
  count: number,
  usable: (i: number) => boolean,
): number[] {
  const home = mm.regionMembers.get(slot.region) ?? [];
  const chosen: number[] = [];
  const taken = new Set<number>();
  tryFrom(random, home, count * 6, count, usable, chosen, taken);
  if (chosen.length < count) {
    const platformPool = [...mm.regionMembers.values()]
      .flat()
      .filter((i) => mm.players[i]!.platform === slot.platform);
    tryFrom(random, platformPool, count * 10, count, usable, chosen, taken);
  }
  return chosen;
}

/**
 * Up to `attempts` random picks from `pool`, each usable one not `taken` yet added to `chosen`
 * (and `taken`) until it holds `count`.
 */
function tryFrom(
  random: Random,
  pool: readonly number[],
  attempts: number,
  count: number,
  usable: (i: number) => boolean,
  chosen: number[],
  taken: Set<number>,
): void {
  for (let a = 0; a < attempts && chosen.length < count && pool.length > 0; a++) {
    const i = random.pick(pool);
    if (!taken.has(i) && usable(i)) {
      taken.add(i);
      chosen.push(i);
    }
  }
}

export function makeBots(random: Random, count: number): Entrant[] {
  const bots: Entrant[] = [];
  const names = new Set<string>();
  let id = random.int(100, 900);
  while (bots.length < count) {
    const name = botName(random);
    if (names.has(name)) continue;
    names.add(name);
    id += random.int(1, 7);
    bots.push({ playerId: `ai.${id}`, name, skill: random.normal(-1.9, 0.4), player: null });
  }
  return bots;
}

/** Roster sizes and their weights: full teams mostly, some threes and lone players (as measured). */
// prettier-ignore
const ROSTER_SIZES: Readonly<Record<'ranked' | 'squad' | 'duo' | 'solo', ReadonlyArray<readonly [number, number]>>> = {
  ranked: [[4, 92], [3, 6], [2, 2]],
  squad: [[4, 72], [3, 17], [2, 5], [1, 6]],
  duo: [[2, 92], [1, 8]],
  solo: [[1, 1]],
};

/** Splits entrants into rosters of the mode's size, with the odd short roster real lobbies have. */
export function groupIntoRosters(
  random: Random,
  entrants: Entrant[],
  teamSize: number,
  ranked = false,
): Entrant[][] {
  const sizes = ranked
    ? ROSTER_SIZES.ranked
    : teamSize === 4
      ? ROSTER_SIZES.squad
      : teamSize === 2
        ? ROSTER_SIZES.duo
        : ROSTER_SIZES.solo;
  const rosters: Entrant[][] = [];
  let next = 0;
  while (next < entrants.length) {
    const size = Math.min(random.weighted(sizes), entrants.length - next);
    rosters.push(entrants.slice(next, next + size));
    next += size;
  }
  return rosters;
}

/**
 * Team ids as the real service numbers them: 1… in squads and duos (lone rosters now and then
 * 200+), 100000… in solo.
 */
export function assignTeamIds(
  random: Random,
  rosters: Entrant[][],
  teamSize: number,
): LobbyRoster[] {
  let next = teamSize === 1 ? 100_000 : 1;
  let lone = 200;
  return rosters.map((members) => {
    if (teamSize > 1 && members.length === 1 && random.chance(0.3))
      return { teamId: lone++, members };
    const teamId = next;
    next += random.chance(0.04) ? 2 : 1;
    return { teamId, members };
  });
}
