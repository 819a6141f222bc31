/**
 * The demo's match calendar: which matches are played, where, in which mode and on which map,
 * and when — 14 days of them, more in each region's evening, in proportion to each platform's
 * players. Participants are chosen later, in chronological order (see `generate-demo.ts`).
 */
import {
  STANDARD_GAME_MODES,
  type MatchType,
  type StandardGameMode,
} from '../domain/game-modes.ts';
import type { Platform } from '../domain/shards.ts';
import { ESPORTS_MAPS, DEMO_MAPS, demoMap } from './maps.ts';
import { apportion, REGION_UTC_OFFSET, type DemoPlayer } from './players.ts';
import { deriveSeed, type Random } from './random.ts';
import { biasTowardSeason } from './season-bias.ts';

/**
 * What a scheduled match is: public matchmaking (`official`), ranked squads (`competitive`),
 * a custom game, team deathmatch (`arcade`) or a tournament match.
 */
export type MatchKind = 'official' | 'ranked' | 'custom' | 'arcade' | 'tournament';

export interface MatchSlot {
  /** Seed of the match's own random streams. */
  seed: number;
  kind: MatchKind;
  platform: Platform;
  region: string;
  gameMode: string;
  /** The standard mode the match plays like (team size and perspective); null for TDM. */
  baseMode: StandardGameMode | null;
  mapName: string;
  matchType: MatchType;
  /** Epoch ms, a whole second. */
  createdAt: number;
  /** Seconds. */
  duration: number;
  tournamentId?: string;
  /** Fixed teams (player indices) for tournament matches; others are matchmade. */
  lineup?: number[][];
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The demo covers the retention window: from 14 days (less an hour of slack) ago … */
export const OLDEST_MATCH_AGE_MS = 14 * DAY_MS - HOUR_MS;
/** … to matches that ended half an hour ago. */
export const NEWEST_MATCH_END_AGE_MS = 30 * 60_000;
/** Regular (non-tournament) matches at scale 1. */
export const BASE_MATCHES = 1_500;

/** Relative play at each local hour (0–23): quiet mornings, busy evenings. */
const DIURNAL = [
  0.55, 0.42, 0.3, 0.2, 0.13, 0.1, 0.12, 0.17, 0.24, 0.31, 0.38, 0.45, 0.52, 0.57, 0.62, 0.67, 0.74,
  0.83, 0.93, 1, 1, 0.97, 0.86, 0.7,
];

const KIND_SHARES = { official: 84, ranked: 10, custom: 4.5, arcade: 1.5 };

const MODE_WEIGHTS: Readonly<Record<'pc-b' | 'other', Readonly<Record<StandardGameMode, number>>>> =
  {
    'pc-b': { solo: 7, 'solo-fpp': 15, duo: 9, 'duo-fpp': 20, squad: 16, 'squad-fpp': 33 },
    other: { solo: 9, 'solo-fpp': 10, duo: 13, 'duo-fpp': 15, squad: 25, 'squad-fpp': 28 },
  };

const CUSTOM_MODES: ReadonlyArray<readonly [string, number]> = [
  ['normal-squad-fpp', 18],
  ['normal-squad', 8],
  ['normal-duo-fpp', 6],
  ['normal-solo-fpp', 4],
  ['war-duo', 5],
  ['war-squad-fpp', 5],
  ['war-solo', 2],
  ['esports-squad-fpp', 12],
  ['esports-squad', 4],
  ['zombie-squad-fpp', 2],
  ['conquest-duo-fpp', 1],
];

/** A whole-second instant in [from, to], drawn by the local time of day at `utcOffset` hours. */
export function sampleTime(random: Random, from: number, to: number, utcOffset: number): number {
  if (to <= from) return Math.floor(from / 1000) * 1000;
  for (;;) {
    const at = from + random.next() * (to - from);
    const hour = Math.floor((((at / HOUR_MS + utcOffset) % 24) + 24) % 24);
    if (random.next() < DIURNAL[hour]!) return Math.floor(at / 1000) * 1000;
  }
}

/** Standard mode a custom mode plays like: `esports-squad-fpp` → `squad-fpp`. */
export function baseModeOf(gameMode: string): StandardGameMode | null {
  const base = gameMode.replace(/^(normal|war|zombie|conquest|esports)-/, '');
  return (STANDARD_GAME_MODES as readonly string[]).includes(base)
    ? (base as StandardGameMode)
    : null;
}

/** Players per team in a standard mode. */
export function teamSizeOf(mode: StandardGameMode): number {
  return mode.startsWith('squad') ? 4 : mode.startsWith('duo') ? 2 : 1;
}

/** A map for a battle royale of `teamSize`, by matchmaking weight (or evenly, for custom games). */
function mapFor(random: Random, teamSize: number, weighted: boolean): string {
  const maps = DEMO_MAPS.filter((m) => m.weight > 0 && m.teamSizes.includes(teamSize));
  return weighted
    ? random.weighted(maps.map((m) => [m.name, m.weight] as const))
    : random.pick(maps).name;
}

const RANKED_MAPS = DEMO_MAPS.filter((m) => m.ranked).map((m) => [m.name, m.weight] as const);

export function durationFor(random: Random, mapName: string, gameMode: string): number {
  if (gameMode === 'tdm') return random.int(300, 600);
  const [min, max] = demoMap(mapName).durationSeconds;
  const seconds = random.int(min, max);
  return gameMode.startsWith('war-') ? Math.round(seconds * 0.6) : seconds;
}

export interface ScheduleOptions {
  seed: number;
  now: number;
  scale: number;
  players: readonly DemoPlayer[];
  /** Start of the current pc-b season, when it began inside the window (epoch ms). */
  pcbSeasonStart: number | null;
}

/** The regular matches of the demo (tournaments are added elsewhere), not yet sorted. */
export function scheduleMatches(random: Random, options: ScheduleOptions): MatchSlot[] {
  const { now, players } = options;
  const regionCounts = new Map<Platform, Record<string, number>>();
  for (const p of players) {
    const counts = regionCounts.get(p.platform) ?? {};
    counts[p.region] = (counts[p.region] ?? 0) + 1;
    regionCounts.set(p.platform, counts);
  }
  const platformWeights = Object.fromEntries(
    [...regionCounts].map(([platform, counts]) => [
      platform,
      Object.values(counts).reduce((a, b) => a + b, 0),
    ]),
  );
  const total = Math.max(1, Math.round(BASE_MATCHES * options.scale));
  const slots: MatchSlot[] = [];
  for (const [platform, n] of Object.entries(apportion(total, platformWeights))) {
    const regions = Object.entries(regionCounts.get(platform as Platform)!);
    const kinds = Object.entries(apportion(n, KIND_SHARES)).flatMap(([kind, k]) =>
      Array.from({ length: k }, () => kind as MatchKind),
    );
    for (const kind of kinds) {
      const region = random.weighted(regions);
      slots.push(
        planSlot(random, options, {
          kind,
          platform: platform as Platform,
          region,
          seed: deriveSeed(options.seed, 'match', slots.length),
        }),
      );
    }
  }
  if (options.pcbSeasonStart !== null)
    biasTowardSeason(random, slots, options.pcbSeasonStart, now, platformWeights['pc-b'] ?? 0);
  return slots;
}

function planSlot(
  random: Random,
  options: ScheduleOptions,
  base: { kind: MatchKind; platform: Platform; region: string; seed: number },
): MatchSlot {
  const { kind, platform } = base;
  let gameMode: string;
  let mapName: string;
  let matchType: MatchType = 'official';
  if (kind === 'official') {
    gameMode = random.weighted(
      Object.entries(MODE_WEIGHTS[platform === 'pc-b' ? 'pc-b' : 'other']),
    );
    mapName = mapFor(random, teamSizeOf(baseModeOf(gameMode)!), true);
  } else if (kind === 'ranked') {
    // Ranked is squads only; PC plays it mostly in first person, consoles mostly in third.
    gameMode = random.chance(platform.startsWith('pc') ? 0.75 : 0.35) ? 'squad-fpp' : 'squad';
    mapName = random.weighted(RANKED_MAPS);
    matchType = 'competitive';
  } else if (kind === 'custom') {
    gameMode = random.weighted(CUSTOM_MODES);
    mapName = gameMode.startsWith('esports-')
      ? random.pick(ESPORTS_MAPS)
      : mapFor(random, teamSizeOf(baseModeOf(gameMode)!), false);
    matchType = 'custom';
  } else {
    gameMode = 'tdm';
    mapName = random.chance(0.8) ? 'Tiger_Main' : 'Desert_Main';
    matchType = 'arcade';
  }
  const duration = durationFor(random, mapName, gameMode);
  const createdAt = sampleTime(
    random,
    options.now - OLDEST_MATCH_AGE_MS,
    options.now - NEWEST_MATCH_END_AGE_MS - duration * 1000,
    REGION_UTC_OFFSET[base.region] ?? 0,
  );
  return {
    ...base,
    gameMode,
    baseMode: baseModeOf(gameMode),
    mapName,
    matchType,
    createdAt,
    duration,
  };
}
