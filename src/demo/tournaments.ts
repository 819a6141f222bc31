/**
 * Esports tournaments: a few events of 4–8 squad matches each on the tournament shard, played
 * by pro teams (their own accounts, tag-prefixed names) on one or two evenings.
 */
import { NameRegistry, proName, teamTag } from './names.ts';
import type { DemoPlayer } from './players.ts';
import type { Random } from './random.ts';
import { deriveSeed } from './random.ts';
import {
  NEWEST_MATCH_END_AGE_MS,
  OLDEST_MATCH_AGE_MS,
  durationFor,
  type MatchSlot,
} from './schedule.ts';

const SERIES: ReadonlyArray<readonly [string, string]> = [
  ['eu', 'pgs'],
  ['na', 'pcs'],
  ['as', 'bjs'],
  ['kr', 'pws'],
  ['eu', 'pcs'],
  ['sea', 'pcs'],
  ['na', 'pnc'],
  ['kr', 'pwm'],
  ['sa', 'pas'],
  ['as', 'pcs'],
  ['eu', 'pel'],
  ['sea', 'pmpl'],
];
/** UTC hour the first match of a tournament day starts, by area. */
const START_HOUR: Readonly<Record<string, number>> = {
  eu: 17,
  na: 0,
  as: 11,
  kr: 9,
  sea: 11,
  sa: 22,
};
const TEAMS_PER_MATCH = 16;
const TEAMS_PER_POOL = 20;
const MAPS = [
  'Baltic_Main',
  'Desert_Main',
  'Tiger_Main',
  'Baltic_Main',
  'Neon_Main',
  'Desert_Main',
  'Baltic_Main',
  'Tiger_Main',
];

export interface DemoTournament {
  id: string;
  matchCount: number;
}

export interface TournamentPlan {
  tournaments: DemoTournament[];
  pros: DemoPlayer[];
  slots: MatchSlot[];
}

/**
 * Plans `count` tournaments. Pro accounts are numbered from `firstIndex` on (after the regular
 * players) so every account of the demo has its own index.
 */
export function planTournaments(
  random: Random,
  options: { seed: number; now: number; count: number; firstIndex: number },
): TournamentPlan {
  const pros: DemoPlayer[] = [];
  const pools = new Map<string, number[][]>();
  const names = new NameRegistry();
  const tags = new NameRegistry();
  const poolOf = (area: string): number[][] => {
    let pool = pools.get(area);
    if (!pool) {
      pool = [];
      for (let t = 0; t < TEAMS_PER_POOL; t++) {
        const tag = tags.claim(() => teamTag(random));
        const team: number[] = [];
        for (let m = 0; m < 4; m++) {
          team.push(options.firstIndex + pros.length);
          pros.push({
            index: options.firstIndex + pros.length,
            accountId: random.accountId(),
            name: names.claim(() => proName(random, tag)),
            platform: 'tournament',
            region: 'pc-tournament',
            skill: random.normal(1.6, 0.45),
            activity: 1,
            favourites: new Set(),
            ranked: 0,
          });
        }
        pool.push(team);
      }
      pools.set(area, pool);
    }
    return pool;
  };

  const tournaments: DemoTournament[] = [];
  const slots: MatchSlot[] = [];
  const series = random.shuffle([...SERIES]).slice(0, options.count);
  for (const [area, name] of series) {
    const id = `${area}-${name}${random.int(2, 30)}`;
    const matchCount = random.int(4, 8);
    const pool = poolOf(area);
    const gameMode = random.chance(0.8) ? 'squad-fpp' : 'squad';
    const matchType = random.chance(0.6) ? 'official' : 'event';
    const firstDay = Math.floor((options.now - OLDEST_MATCH_AGE_MS) / 86_400_000) + 1;
    const lastDay = Math.floor((options.now - NEWEST_MATCH_END_AGE_MS) / 86_400_000) - 2;
    let at =
      (random.int(firstDay, lastDay) * 24 + START_HOUR[area]!) * 3_600_000 +
      random.int(0, 20) * 60_000;
    const planned: MatchSlot[] = [];
    for (let k = 0; k < matchCount; k++) {
      // Four matches a day at most; the rest on the next evening.
      if (k === 4) at += 24 * 3_600_000 - 4 * 50 * 60_000;
      const mapName = MAPS[k % MAPS.length]!;
      const duration = durationFor(random, mapName, gameMode);
      const lineup = random
        .shuffle([...pool])
        .slice(0, TEAMS_PER_MATCH)
        .map((team) => [...team]);
      planned.push({
        seed: deriveSeed(options.seed, 'tournament', id, k),
        kind: 'tournament',
        platform: 'tournament',
        region: 'pc-tournament',
        gameMode,
        baseMode: gameMode,
        mapName,
        matchType,
        createdAt: Math.floor(at / 1000) * 1000,
        duration,
        tournamentId: id,
        lineup,
      });
      at += duration * 1000 + random.int(15, 25) * 60_000;
    }
    // A late start hour can push the second evening past the newest allowed end: a day earlier.
    const last = planned.at(-1)!;
    const overrun = last.createdAt + last.duration * 1000 - (options.now - NEWEST_MATCH_END_AGE_MS);
    const shift = overrun > 0 ? Math.ceil(overrun / 86_400_000) * 86_400_000 : 0;
    for (const slot of planned) slots.push({ ...slot, createdAt: slot.createdAt - shift });
    tournaments.push({ id, matchCount });
  }
  return { tournaments, pros, slots };
}
