/**
 * How the fighters of a battle royale die: each death gets a cause (a player, the zone, a
 * mistake, a disconnect) and, when a player did it, a killer — the stronger and the longer
 * alive get more — with the knock before it in team modes, the finishing hit and assists, each
 * a hit with its damage in the battle's hit book.
 */
import type { HitBook } from './battle-hits.ts';
import {
  alive,
  aliveMates,
  makeKnock,
  newDeath,
  nextAttackId,
  pickOpponent,
  type Death,
  type Fighter,
  type Knock,
} from './fighters.ts';
import type { DemoMap } from './maps.ts';
import type { Random } from './random.ts';
import { FLOATING_VEHICLES } from './vehicles.ts';

const SUICIDES: ReadonlyArray<readonly [{ category: string; causer: string }, number]> = [
  [{ category: 'Damage_Instant_Fall', causer: 'PlayerMale_A_C' }, 4],
  [{ category: 'Damage_Explosion_Grenade', causer: 'ProjGrenade_C' }, 3],
  [{ category: 'Damage_VehicleCrashHit', causer: '' }, 2],
  [{ category: 'Damage_Drown', causer: 'PlayerFemale_A_C' }, 1],
  [{ category: 'Damage_Molotov', causer: 'ProjMolotov_DamageField_Direct_C' }, 1],
];

/** Earliest death first; at the same instant, fighter order. */
const byDeath = (a: Fighter, b: Fighter): number => a.diedAt! - b.diedAt! || a.index - b.index;

export interface Timing {
  durationMs: number;
  matchStartAt: number;
  finalAt: number;
  teamSize: number;
}

/** Gives every death a cause and, for deaths by player, a killer (and knocker and assistants). */
export function resolveDeaths(
  random: Random,
  fighters: Fighter[],
  members: number[][],
  map: DemoMap,
  timing: Timing,
  book: HitBook,
): Death[] {
  const order: Fighter[] = [];
  for (const f of fighters) if (f.diedAt !== null) order.push(f);
  order.sort(byDeath);
  const lastKillerOf = new Map<number, { killer: number; at: number }>();
  const deaths: Death[] = [];
  for (const victim of order) {
    const at = victim.diedAt!;
    const death = newDeath(at, victim.index, 'player', -1);
    const mates = aliveMates(fighters, members[victim.roster]!, victim.index, at);
    const final = at === timing.finalAt;
    const r = random.next();
    const early = at < timing.matchStartAt + 300_000;
    const pLogout = early ? 0.04 : 0.006;
    const pZone = at > timing.durationMs * 0.45 ? 0.085 : 0.012;
    if (!final && r < pLogout && victim.player !== null) {
      death.cause = 'logout';
      deaths.push(death);
      continue;
    }
    if (!final && r < pLogout + 0.028) {
      const suicide = random.weighted(SUICIDES);
      const vehicle =
        suicide.category === 'Damage_VehicleCrashHit'
          ? random.pick(map.vehicles.filter((v) => !FLOATING_VEHICLES.has(v)))
          : null;
      death.cause = 'suicide';
      death.suicide = vehicle ? { category: suicide.category, causer: vehicle } : suicide;
      death.vehicleId = vehicle;
      // A grenade or molotov of one's own is still an attack the telemetry shows.
      if (suicide.causer.startsWith('Proj')) death.attackId = nextAttackId(victim);
      deaths.push(death);
      continue;
    }
    const teamKill = !final && mates.length > 0 && random.chance(0.004);
    // The zone takes some; everyone else falls to a player (or, with no enemy left, the zone).
    const byZone = !final && r < pLogout + 0.028 + pZone;
    let killer: Fighter | null = null;
    if (!byZone && teamKill) {
      killer = fighters[random.pick(mates)]!;
    } else if (!byZone) {
      const recent = lastKillerOf.get(victim.roster);
      const streak = recent && at - recent.at < 120_000 ? recent.killer : -1;
      killer = pickOpponent(random, fighters, {
        roster: victim.roster,
        at,
        survivorsOnly: final,
        weight: 'killer',
        streak,
      });
      if (killer) lastKillerOf.set(victim.roster, { killer: killer.index, at });
    }
    if (killer === null) {
      death.cause = random.chance(0.12) ? 'redzone' : 'bluezone';
      deaths.push(death);
      continue;
    }
    death.teamKill = teamKill;
    const knocked = timing.teamSize > 1 && mates.length > 0 && !teamKill;
    deaths.push(playerKill(random, fighters, members, map, book, death, killer, knocked));
  }
  return deaths;
}

/** A death by another player's hand: the knock before it (team modes), the finish, the credit. */
function playerKill(
  random: Random,
  fighters: Fighter[],
  members: number[][],
  map: DemoMap,
  book: HitBook,
  death: Death,
  killer: Fighter,
  knocked: boolean,
): Death {
  const victim = fighters[death.victim]!;
  const at = death.at;
  if (death.teamKill) {
    killer.teamKills++;
    death.killer = killer.index;
    death.hit = book.strike(random, killer, victim, at, random.float(80, 100));
    death.attackId = death.hit.attackId;
    return death;
  }
  if (!knocked && random.chance(0.012)) {
    const vehicleId = random.pick(map.vehicles.filter((v) => !FLOATING_VEHICLES.has(v)));
    const hit = book.ram(random, killer, victim, at, vehicleId);
    credit(killer, at, hit.metres, false);
    killer.roadKills++;
    death.killer = killer.index;
    death.vehicleId = vehicleId;
    death.hit = hit;
    death.attackId = hit.attackId;
    return death;
  }
  let knock: Knock | null = null;
  let credited = killer;
  let bleedOut = false;
  if (knocked) {
    const knockAt = Math.max(
      victim.landedAt + 2_000,
      killer.landedAt + 1_000,
      at - random.int(4_000, 35_000),
    );
    const helpers = aliveMates(fighters, members[killer.roster]!, killer.index, knockAt);
    const maker =
      helpers.length > 0 && random.chance(0.22) ? fighters[random.pick(helpers)]! : killer;
    const hit = book.strike(
      random,
      maker,
      victim,
      Math.min(knockAt, at - 500),
      random.float(70, 100),
    );
    knock = makeKnock(random, hit, null);
    maker.dbnos++;
    if (random.chance(0.07) && alive(maker, at)) {
      bleedOut = true;
      credited = maker;
    }
  }
  const hit = bleedOut
    ? null
    : book.strike(random, killer, victim, at, knock ? random.float(10, 70) : random.float(80, 100));
  if (hit && knock)
    hit.metres = Math.min(hit.metres, Math.round(random.float(1, 40) * 1000) / 1000);
  const shot = (hit ?? knock)!;
  credit(credited, at, shot.metres, shot.headshot);

  const assists: number[] = [];
  if (knock && knock.attacker !== credited.index) assists.push(knock.attacker);
  for (const i of members[credited.roster]!) {
    if (assists.length >= 2) break;
    if (
      i !== credited.index &&
      !assists.includes(i) &&
      alive(fighters[i]!, at) &&
      random.chance(0.16)
    )
      assists.push(i);
  }
  for (const i of assists) {
    const helper = fighters[i]!;
    helper.assists++;
    if (i === knock?.attacker) continue;
    const before = (knock?.at ?? at) - random.int(500, 15_000);
    const when = Math.max(before, victim.landedAt + 1_000, helper.landedAt + 1_000);
    book.strike(random, helper, victim, Math.min(when, at - 1), random.float(15, 70));
  }
  death.killer = credited.index;
  death.hit = hit;
  death.attackId = shot.attackId;
  death.knock = knock;
  death.bleedOut = bleedOut;
  death.assists = assists;
  return death;
}

/** A kill to `killer`'s name, `metres` away. */
function credit(killer: Fighter, at: number, metres: number, headshot: boolean): void {
  killer.kills++;
  killer.killTimes.push(at);
  killer.longestKill = Math.max(killer.longestKill, metres);
  if (headshot) killer.headshotKills++;
}
