/**
 * Participant stats (REFERENCE §4.2) of a simulated match: kills, knocks, damage and the weapons
 * used come from the battle's events and hits, the rest (distances, heals, loot) from how long
 * each fighter lived, their skill and the map, in the ranges real matches show. The telemetry
 * is told from the same figures, so the two always add up.
 */
import type { ParticipantStatsInput } from '../ingest/match-input.ts';
import type { Battle, DeathCause, Fighter } from './fighters.ts';
import type { DemoMap } from './maps.ts';
import type { Random } from './random.ts';
import { isCarriedWeapon } from './weapons.ts';

const DEATH_TYPE: Readonly<Record<DeathCause, ParticipantStatsInput['deathType']>> = {
  player: 'byplayer',
  bluezone: 'byzone',
  redzone: 'byzone',
  suicide: 'suicide',
  logout: 'logout',
};

/** Kills no more than this far apart (ms) count as one streak. */
const STREAK_GAP_MS = 15_000;

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

function killStreak(times: readonly number[]): number {
  let best = times.length > 0 ? 1 : 0;
  for (let i = 1, run = 1; i < times.length; i++) {
    run = times[i]! - times[i - 1]! <= STREAK_GAP_MS ? run + 1 : 1;
    best = Math.max(best, run);
  }
  return best;
}

/**
 * Stats of every fighter, in fighter order. `arena` marks team deathmatch, where victims
 * respawn, nobody drives or heals, and a fighter who was ever killed is `byplayer`.
 */
export function participantStats(
  random: Random,
  battle: Battle,
  map: DemoMap,
  arena: boolean,
): ParticipantStatsInput[] {
  const duration = battle.durationMs / 1000;
  const rankOf = new Map<number, number>();
  for (const roster of battle.rosters) for (const i of roster.members) rankOf.set(i, roster.rank);
  const finalCause = new Map<number, DeathCause>();
  const killed = new Set<number>();
  for (const death of battle.deaths) {
    killed.add(death.victim);
    if (!arena || death.cause === 'logout') finalCause.set(death.victim, death.cause);
  }

  const used = weaponsUsed(battle);
  const stats: ParticipantStatsInput[] = [];
  for (const f of battle.fighters) {
    const timeSurvived =
      f.diedAt === null ? duration : Math.min(duration, Math.floor(f.diedAt / 1000));
    const aliveSeconds = Math.max(0, timeSurvived - f.landedAt / 1000);
    const cause = finalCause.get(f.index);
    const deathType = cause
      ? DEATH_TYPE[cause]
      : arena && killed.has(f.index)
        ? 'byplayer'
        : 'alive';
    const movement = arena
      ? arenaMovement(random, aliveSeconds)
      : movementOf(random, f, map, aliveSeconds);
    const life = Math.min(1, aliveSeconds / 1500);
    const grit = Math.exp(0.2 * f.skill);
    stats.push({
      DBNOs: f.dbnos,
      assists: f.assists,
      boosts: arena ? 0 : Math.min(14, random.poisson(3.6 * life ** 1.2 * grit)),
      damageDealt: round4(f.damage),
      deathType,
      headshotKills: f.headshotKills,
      heals: arena ? 0 : Math.min(22, random.poisson(3 * life ** 1.1 * grit)),
      killPlace: 1,
      killStreaks: killStreak(f.killTimes),
      kills: f.kills,
      longestKill: f.kills > 0 ? round4(f.longestKill) : 0,
      revives: f.revives,
      rideDistance: movement.ride,
      roadKills: f.roadKills,
      swimDistance: movement.swim,
      teamKills: f.teamKills,
      timeSurvived,
      vehicleDestroys: !arena && movement.ride > 0 && random.chance(0.04) ? 1 : 0,
      walkDistance: movement.walk,
      // Every gun fired was picked up first (a team deathmatch hands out kits instead).
      weaponsAcquired: arena
        ? random.int(0, 3)
        : Math.max(weaponsAcquired(random, aliveSeconds), used[f.index]!),
      winPlace: rankOf.get(f.index)!,
    });
  }
  assignKillPlaces(stats);
  if (!arena) {
    ensureAWreck(stats);
    ensureASwim(random, stats);
  }
  return stats;
}

/** Distinct guns and melee weapons each fighter hit someone with. */
function weaponsUsed(battle: Battle): number[] {
  const sets: Array<Set<string>> = [];
  for (let i = 0; i < battle.fighters.length; i++) sets.push(new Set());
  for (const hit of battle.hits)
    if (isCarriedWeapon(hit.weapon)) sets[hit.attacker]!.add(hit.weapon.itemId);
  const counts: number[] = [];
  for (const set of sets) counts.push(set.size);
  return counts;
}

/** Somebody in a big lobby always ends up in the water: the one who lasted longest, if nobody did. */
function ensureASwim(random: Random, stats: ParticipantStatsInput[]): void {
  if (stats.length < 48 || stats.some((s) => s.swimDistance > 0)) return;
  let swimmer = stats[0]!;
  for (const s of stats) if (s.timeSurvived > swimmer.timeSurvived) swimmer = s;
  swimmer.swimDistance = round4(random.float(5, 80));
}

/**
 * A big lobby always leaves a vehicle wrecked by someone: the longest driver, when nobody else
 * destroyed one.
 */
function ensureAWreck(stats: ParticipantStatsInput[]): void {
  if (stats.length < 48 || stats.some((s) => s.vehicleDestroys > 0)) return;
  let driver: ParticipantStatsInput | null = null;
  for (const s of stats) if (s.rideDistance > (driver?.rideDistance ?? 0)) driver = s;
  if (driver) driver.vehicleDestroys = 1;
}

interface KillRecord {
  /** Index in the stats. */
  i: number;
  kills: number;
  damage: number;
}

const byKillPlace = (a: KillRecord, b: KillRecord): number =>
  b.kills - a.kills || b.damage - a.damage || a.i - b.i;

/** killPlace 1…N: most kills first, then most damage, then participant order. */
export function assignKillPlaces(stats: ParticipantStatsInput[]): void {
  const order: KillRecord[] = [];
  for (let i = 0; i < stats.length; i++)
    order.push({ i, kills: stats[i]!.kills, damage: stats[i]!.damageDealt });
  order.sort(byKillPlace);
  for (let place = 0; place < order.length; place++) stats[order[place]!.i]!.killPlace = place + 1;
}

function weaponsAcquired(random: Random, aliveSeconds: number): number {
  if (aliveSeconds < 20) return random.int(0, 1);
  return Math.min(20, 1 + random.poisson(1 + 4.5 * Math.min(1, aliveSeconds / 1000)));
}

/**
 * Metres walked, driven and swum: driving more likely the longer one lives and the bigger the map.
 */
function movementOf(
  random: Random,
  f: Fighter,
  map: DemoMap,
  aliveSeconds: number,
): { walk: number; ride: number; swim: number } {
  const big = map.extentCm >= 600_000;
  const rideCap = big ? 6_000 : map.extentCm >= 400_000 ? 3_500 : 1_500;
  const rides =
    aliveSeconds > 90 &&
    random.chance((big ? 0.12 : 0.06) + (big ? 0.6 : 0.35) * Math.min(1, aliveSeconds / 1200));
  // A ride is a real trip: at least half a kilometre, longer for those who live longer.
  const ride = rides
    ? round4(500 + (rideCap - 500) * random.next() * (0.4 + 0.6 * Math.min(1, aliveSeconds / 1400)))
    : 0;
  const onFoot = Math.max(0, aliveSeconds - ride / random.float(12, 20));
  const speed = random.float(0.9, 2.1) * (1 + 0.1 * f.skill);
  const walk =
    aliveSeconds >= 200
      ? Math.min(4_000, Math.max(200, onFoot * speed))
      : Math.min(400, aliveSeconds * random.float(0.3, 1.6));
  const swim = random.chance(0.07 + 0.08 * Math.min(1, aliveSeconds / 1500))
    ? random.float(2, random.chance(0.1) ? 600 : 150)
    : 0;
  return { walk: round4(walk), ride, swim: round4(swim) };
}

function arenaMovement(
  random: Random,
  aliveSeconds: number,
): { walk: number; ride: number; swim: number } {
  return { walk: round4(aliveSeconds * random.float(2.4, 4.6)), ride: 0, swim: 0 };
}
