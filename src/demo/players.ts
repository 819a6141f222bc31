/**
 * The demo's player population: accounts on the four game platforms, each with a home region, a
 * gamer tag unique per platform (ignoring case), a skill that drives their match results and an
 * appetite for play — heavy-tailed, so a few play hundreds of matches in the window and many
 * only a handful.
 *
 * Attributes added later (clan, ban status) should draw from a stream of their own
 * (`deriveSeed(seed, 'clans')` …) over the finished list, so that adding them leaves every
 * existing player, and so every generated match, as it was.
 */
import type { Platform } from '../domain/shards.ts';
import { STANDARD_GAME_MODES, type StandardGameMode } from '../domain/game-modes.ts';
import { gamerTag, NameRegistry, type NameCulture } from './names.ts';
import type { Random } from './random.ts';

export type GamePlatform = Exclude<Platform, 'tournament'>;

export interface DemoPlayer {
  /** Position in the population (stable for a seed and scale). */
  index: number;
  accountId: string;
  name: string;
  platform: Platform;
  region: string;
  /** Roughly standard normal; bots sit well below zero. */
  skill: number;
  /**
   * How much they play relative to the median player (1): log-normal, from about 0.1 to 40.
   * Their expected appearances per matchmaking cycle of a queue.
   */
  activity: number;
  /** Modes played four times as often as the others. */
  favourites: ReadonlySet<StandardGameMode>;
  /** Appetite for ranked squads relative to their activity; 0 for those who never play ranked. */
  ranked: number;
}

/** Players at scale 1 per platform; pc-b, the main storefront, has the largest share. */
export const BASE_PLAYERS: Readonly<Record<GamePlatform, number>> = {
  'pc-b': 1_680,
  'pc-a': 440,
  'console-a': 480,
  'console-b': 440,
};

/** Relative population of each region of a platform. */
export const REGION_WEIGHTS: Readonly<Record<GamePlatform, Readonly<Record<string, number>>>> = {
  'pc-b': {
    'pc-eu': 27,
    'pc-na': 15,
    'pc-as': 17,
    'pc-sea': 9,
    'pc-ru': 11,
    'pc-krjp': 8,
    'pc-jp': 4,
    'pc-sa': 5,
    'pc-oc': 4,
  },
  'pc-a': { 'pc-a': 1 },
  'console-a': { 'console-a-eu': 38, 'console-a-na': 36, 'console-a-as': 16, 'console-a-oc': 10 },
  'console-b': {
    'console-b-na': 40,
    'console-b-eu': 30,
    'console-b-sa': 12,
    'console-b-as': 10,
    'console-b-oc': 8,
  },
};

/** UTC offset (hours) of a region's evening, for when its players are online. */
export const REGION_UTC_OFFSET: Readonly<Record<string, number>> = {
  'pc-eu': 1,
  'pc-na': -6,
  'pc-as': 8,
  'pc-sea': 7,
  'pc-ru': 3,
  'pc-krjp': 9,
  'pc-jp': 9,
  'pc-sa': -3,
  'pc-oc': 10,
  'pc-a': 9,
  'pc-tournament': 1,
  'console-a-eu': 1,
  'console-a-na': -6,
  'console-a-as': 8,
  'console-a-oc': 10,
  'console-b-eu': 1,
  'console-b-na': -6,
  'console-b-as': 8,
  'console-b-oc': 10,
  'console-b-sa': -3,
};

function cultureOf(region: string, random: Random): NameCulture {
  const area = region.replace(/^(pc|console-a|console-b)-/, '');
  switch (area) {
    case 'eu':
      return random.chance(0.22) ? 'ru' : 'en';
    case 'na':
      return random.chance(0.15) ? 'latam' : 'en';
    case 'as':
      return random.weighted<NameCulture>([
        ['cn', 6],
        ['kr', 1],
        ['jp', 1],
        ['en', 2],
      ]);
    case 'sea':
      return random.chance(0.8) ? 'sea' : 'en';
    case 'ru':
      return 'ru';
    case 'krjp':
      return random.chance(0.7) ? 'kr' : 'jp';
    case 'jp':
      return 'jp';
    case 'sa':
      return 'latam';
    case 'a':
      return 'kr';
    default:
      return 'en';
  }
}

/** Splits `total` over weighted keys by largest remainder, so the parts add up exactly. */
export function apportion(
  total: number,
  weights: Readonly<Record<string, number>>,
): Record<string, number> {
  const keys = Object.keys(weights);
  const sum = keys.reduce((s, k) => s + weights[k]!, 0);
  const exact = keys.map((k) => (total * weights[k]!) / sum);
  const parts = exact.map(Math.floor);
  const order = keys
    .map((_, i) => i)
    .sort((a, b) => exact[b]! - parts[b]! - (exact[a]! - parts[a]!));
  for (let i = 0, left = total - parts.reduce((s, p) => s + p, 0); i < left; i++)
    parts[order[i]!]!++;
  return Object.fromEntries(keys.map((k, i) => [k, parts[i]!]));
}

/**
 * Creates the population. `factor` scales the head counts (the demo's `scale` grows players
 * more slowly than matches).
 */
export function createPlayers(random: Random, factor: number): DemoPlayer[] {
  const players: DemoPlayer[] = [];
  for (const platform of Object.keys(BASE_PLAYERS) as GamePlatform[]) {
    const names = new NameRegistry();
    const total = Math.max(40, Math.round(BASE_PLAYERS[platform] * factor));
    const fppShare = platform === 'pc-b' ? 0.7 : 0.45;
    for (const [region, count] of Object.entries(apportion(total, REGION_WEIGHTS[platform]))) {
      for (let i = 0; i < count; i++) {
        const culture = cultureOf(region, random);
        const fpp = random.chance(fppShare);
        const size = random.weighted([
          ['solo', 2],
          ['duo', 3],
          ['squad', 5],
        ]);
        const favourites = new Set<StandardGameMode>(
          STANDARD_GAME_MODES.filter((m) => m.endsWith('-fpp') === fpp && m.startsWith(size)),
        );
        const skill = random.normal(0, 1);
        // Ranked needs a levelled account: the keen and the good queue for it more often.
        const ranked = random.chance(Math.min(0.7, Math.max(0.1, 0.3 + 0.12 * skill)))
          ? random.float(0.5, 1.5)
          : 0;
        players.push({
          index: players.length,
          accountId: random.accountId(),
          name: names.claim(() => gamerTag(random, culture, platform === 'console-b')),
          platform,
          region,
          skill,
          activity: Math.exp(random.normal(0, 1.15)),
          favourites,
          ranked,
        });
      }
    }
  }
  return players;
}
