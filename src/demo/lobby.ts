/**
 * Filling a match: who plays, in which rosters. Public and ranked matches draw from the
 * rotations of the match's region (and players from the platform's other regions when it is
 * thin); public low-population regions get more bots, ranked lobbies none; custom and arcade
 * lobbies are ad-hoc groups, tournaments use fixed teams.
 */
import { REGION_PLATFORM } from '../domain/shards.ts';
import { adHoc, assignTeamIds, groupIntoRosters, makeBots } from './lobby-groups.ts';
import { demoMap, RANKED_LOBBY } from './maps.ts';
import type { Matchmaking } from './matchmaking.ts';
import type { DemoPlayer } from './players.ts';
import type { Random } from './random.ts';
import { teamSizeOf, type MatchSlot } from './schedule.ts';

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
  const usable = isFree.bind(null, mm, inMatch, at);

  if (slot.lineup) {
    const rosters: LobbyRoster[] = [];
    for (let t = 0; t < slot.lineup.length; t++)
      rosters.push({ teamId: t + 1, members: entrantsOf(mm, slot.lineup[t]!) });
    return rosters;
  }
  if (slot.baseMode === null) {
    const arena = adHoc(random, slot, mm, 16, usable);
    admit(inMatch, arena);
    // Seats nobody free could take go to bots, so both teams always field eight.
    const entrants = [...entrantsOf(mm, arena), ...makeBots(random, 16 - arena.length)];
    return [
      { teamId: 1, members: entrants.slice(0, 8) },
      { teamId: 2, members: entrants.slice(8) },
    ];
  }

  const teamSize = teamSizeOf(slot.baseMode);
  const map = demoMap(slot.mapName);
  const ranked = slot.kind === 'ranked';
  let lobby: number;
  let bots = 0;
  let humans: number[];
  if (slot.kind === 'official' || ranked) {
    const queue = ranked ? `ranked-${slot.gameMode}` : slot.gameMode;
    lobby = ranked ? RANKED_LOBBY : random.int(map.lobby[0], map.lobby[1]);
    const share = ranked ? 0 : botShare(mm.regionMembers.get(slot.region)?.length ?? 0);
    bots =
      share < 0.1 && random.chance(0.3) ? 0 : Math.round(lobby * share * random.float(0.4, 1.4));
    const wanted = lobby - bots;
    const homeWanted = Math.round(wanted * random.float(0.88, 0.96));
    humans = mm.rotation(slot.region, queue).take(homeWanted, at, usable);
    admit(inMatch, humans);
    // A thin region's shortfall comes from its neighbours: all of it in ranked, half in public
    // matches (bots take the other half).
    const short = homeWanted - humans.length;
    const fromElsewhere = wanted - homeWanted + (ranked ? short : Math.round(short / 2));
    humans.push(...fromNeighbours(random, slot, mm, queue, fromElsewhere, inMatch, usable));
    if (ranked && humans.length < lobby) {
      const more = adHoc(random, slot, mm, lobby - humans.length, usable);
      admit(inMatch, more);
      humans.push(...more);
    }
    bots = lobby - humans.length;
    if (ranked) bots = 0;
  } else {
    lobby = slot.gameMode.startsWith('esports-')
      ? 64
      : random.int(teamSize * 6, Math.min(100, map.lobby[1]));
    humans = adHoc(random, slot, mm, lobby, usable);
    admit(inMatch, humans);
  }

  // When nearly everyone is already in a match, bots fill the lobby up to two full teams: a
  // scheduled match is always played, by at least two rosters.
  bots = Math.max(bots, 2 * teamSize - humans.length);
  const rosters: Entrant[][] = [
    ...groupIntoRosters(random, entrantsOf(mm, humans), teamSize, ranked),
    ...groupIntoRosters(random, makeBots(random, bots), teamSize),
  ];
  random.shuffle(rosters);
  return assignTeamIds(random, rosters, teamSize);
}

/** Whether player `i` can join a match at `at`: not in it already, nor still in another one. */
function isFree(mm: Matchmaking, inMatch: ReadonlySet<number>, at: number, i: number): boolean {
  return !inMatch.has(i) && mm.busyUntil[i]! <= at;
}

/** Puts the players `indices` in the match being filled. */
function admit(inMatch: Set<number>, indices: readonly number[]): void {
  for (const i of indices) inMatch.add(i);
}

/** The entrants of the players `indices`. */
function entrantsOf(mm: Matchmaking, indices: readonly number[]): Entrant[] {
  const entrants: Entrant[] = [];
  for (const i of indices) {
    const p = mm.players[i]!;
    entrants.push({ playerId: p.accountId, name: p.name, skill: p.skill, player: p });
  }
  return entrants;
}

/**
 * Up to `count` players of the platform's other regions, a few at a time, each admitted to
 * `inMatch` (which `usable` consults) as soon as found.
 */
function fromNeighbours(
  random: Random,
  slot: MatchSlot,
  mm: Matchmaking,
  queue: string,
  count: number,
  inMatch: Set<number>,
  usable: (i: number) => boolean,
): number[] {
  const others = [...mm.regionMembers.keys()].filter(
    (r) => r !== slot.region && REGION_PLATFORM[r] === slot.platform,
  );
  const weights = others.map((r) => [r, mm.regionMembers.get(r)!.length] as const);
  const found: number[] = [];
  for (let attempts = 0; found.length < count && attempts < 12 && others.length > 0; attempts++) {
    const region = random.weighted(weights);
    const extra = mm
      .rotation(region, queue)
      .take(Math.min(count - found.length, random.int(2, 8)), slot.createdAt, usable);
    admit(inMatch, extra);
    found.push(...extra);
  }
  return found;
}
