/**
 * Filling a match: who plays, in which rosters. Public matches draw from the rotations of the
 * match's region (and a few players from the platform's other regions), low-population regions
 * get more bots, custom and arcade lobbies are ad-hoc groups, tournaments use fixed teams.
 */
import { botName } from './names.ts';
import type { DemoPlayer } from './players.ts';
import type { Random } from './random.ts';
import type { Matchmaking } from './matchmaking.ts';
import { teamSizeOf, type MatchSlot } from './schedule.ts';
import { demoMap } from './game-catalogue.ts';
import { REGION_PLATFORM } from '../domain/shards.ts';

export interface Entrant {
  playerId: string;
  name: string;
  skill: number;
  /** The account behind the entrant; null for bots. */
  player: DemoPlayer | null;
}

export interface LobbyRoster {
  teamId: number;
  members: Entrant[];
}

/**
 * Bots per lobby slot in a region of `population` players: few in busy regions, many in quiet ones.
 */
export function botShare(population: number): number {
  return Math.min(0.45, Math.max(0.02, 0.42 - population / 1000));
}

/** The entrants of a match, grouped into rosters with their team ids. */
export function fillLobby(random: Random, slot: MatchSlot, mm: Matchmaking): LobbyRoster[] {
  const at = slot.createdAt;
  const inMatch = new Set<number>();
  const usable = (i: number): boolean => !inMatch.has(i) && mm.busyUntil[i]! <= at;
  const admit = (indices: readonly number[]): void => indices.forEach((i) => inMatch.add(i));
  const human = (i: number): Entrant => {
    const p = mm.players[i]!;
    return { playerId: p.accountId, name: p.name, skill: p.skill, player: p };
  };

  if (slot.lineup) {
    return slot.lineup.map((team, t) => ({ teamId: t + 1, members: team.map(human) }));
  }
  if (slot.baseMode === null) {
    const arena = adHoc(random, slot, mm, 16, usable);
    admit(arena);
    // Seats nobody free could take go to bots, so both teams always field eight.
    const entrants = [...arena.map(human), ...makeBots(random, 16 - arena.length)];
    return [
      { teamId: 1, members: entrants.slice(0, 8) },
      { teamId: 2, members: entrants.slice(8) },
    ];
  }

  const teamSize = teamSizeOf(slot.baseMode);
  const map = demoMap(slot.mapName);
  let lobby: number;
  let bots = 0;
  let humans: number[];
  if (slot.kind === 'official') {
    lobby = random.int(map.lobby[0], map.lobby[1]);
    const share = botShare(mm.regionMembers.get(slot.region)?.length ?? 0);
    bots =
      share < 0.1 && random.chance(0.3) ? 0 : Math.round(lobby * share * random.float(0.4, 1.4));
    const wanted = lobby - bots;
    const homeWanted = Math.round(wanted * random.float(0.88, 0.96));
    humans = mm.rotation(slot.region, slot.gameMode).take(homeWanted, at, usable);
    admit(humans);
    // Half the shortfall of a thin region comes from its neighbours, the other half are bots.
    const fromElsewhere = wanted - homeWanted + Math.round((homeWanted - humans.length) / 2);
    const others = [...mm.regionMembers.keys()].filter(
      (r) => r !== slot.region && REGION_PLATFORM[r] === slot.platform,
    );
    const weights = others.map((r) => [r, mm.regionMembers.get(r)!.length] as const);
    for (
      let got = 0, attempts = 0;
      got < fromElsewhere && attempts < 12 && others.length > 0;
      attempts++
    ) {
      const region = random.weighted(weights);
      const extra = mm
        .rotation(region, slot.gameMode)
        .take(Math.min(fromElsewhere - got, random.int(2, 8)), at, usable);
      admit(extra);
      humans.push(...extra);
      got += extra.length;
    }
    bots = lobby - humans.length;
  } else {
    lobby = slot.gameMode.startsWith('esports-')
      ? 64
      : random.int(teamSize * 6, Math.min(100, map.lobby[1]));
    humans = adHoc(random, slot, mm, lobby, usable);
    admit(humans);
  }

  // When nearly everyone is already in a match, bots fill the lobby up to two full teams: a
  // scheduled match is always played, by at least two rosters.
  bots = Math.max(bots, 2 * teamSize - humans.length);
  const rosters: Entrant[][] = [
    ...groupIntoRosters(random, humans.map(human), teamSize),
    ...groupIntoRosters(random, makeBots(random, bots), teamSize),
  ];
  random.shuffle(rosters);
  return assignTeamIds(random, rosters, teamSize);
}

/**
 * Players for a lobby that is not matchmade: friends of the region, then anyone on the platform.
 */
function adHoc(
  random: Random,
  slot: MatchSlot,
  mm: Matchmaking,
  count: number,
  usable: (i: number) => boolean,
): number[] {
  const home = mm.regionMembers.get(slot.region) ?? [];
  const chosen: number[] = [];
  const taken = new Set<number>();
  const tryFrom = (pool: readonly number[], attempts: number): void => {
    for (let a = 0; a < attempts && chosen.length < count && pool.length > 0; a++) {
      const i = random.pick(pool);
      if (!taken.has(i) && usable(i)) {
        taken.add(i);
        chosen.push(i);
      }
    }
  };
  tryFrom(home, count * 6);
  if (chosen.length < count) {
    const platformPool = [...mm.regionMembers.values()]
      .flat()
      .filter((i) => mm.players[i]!.platform === slot.platform);
    tryFrom(platformPool, count * 10);
  }
  return chosen;
}

function makeBots(random: Random, count: number): Entrant[] {
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
const ROSTER_SIZES: Readonly<Record<'squad' | 'duo' | 'solo', ReadonlyArray<readonly [number, number]>>> = {
  squad: [[4, 72], [3, 17], [2, 5], [1, 6]],
  duo: [[2, 92], [1, 8]],
  solo: [[1, 1]],
};

/** Splits entrants into rosters of the mode's size, with the odd short roster real lobbies have. */
function groupIntoRosters(random: Random, entrants: Entrant[], teamSize: number): Entrant[][] {
  const sizes =
    teamSize === 4 ? ROSTER_SIZES.squad : teamSize === 2 ? ROSTER_SIZES.duo : ROSTER_SIZES.solo;
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
function assignTeamIds(random: Random, rosters: Entrant[][], teamSize: number): LobbyRoster[] {
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
