/**
 * How the fighters of a battle royale die: each death gets a cause (a player, the zone, a
 * mistake, a disconnect) and, when a player did it, a killer — the stronger and the longer
 * alive get more — with the knock before it in team modes, assists, and the knocks that ended
 * in a revive.
 */
import type { DemoMap, Weapon } from './game-catalogue.ts';
import { FLOATING_VEHICLES, WEAPONS, WEAPON_CLASSES } from './game-catalogue.ts';
import {
  alive,
  hitMetres,
  makeKnock,
  newDeath,
  pickFighter,
  type Death,
  type Fighter,
  type Hit,
  type Knock,
} from './fighters.ts';
import type { Random } from './random.ts';

const SUICIDES: ReadonlyArray<readonly [{ category: string; causer: string }, number]> = [
  [{ category: 'Damage_Instant_Fall', causer: 'PlayerMale_A_C' }, 4],
  [{ category: 'Damage_Explosion_Grenade', causer: 'ProjGrenade_C' }, 3],
  [{ category: 'Damage_VehicleCrashHit', causer: '' }, 2],
  [{ category: 'Damage_Drown', causer: 'PlayerFemale_A_C' }, 1],
  [{ category: 'Damage_Molotov', causer: 'ProjMolotov_DamageField_Direct_C' }, 1],
];
const CLASS_WEIGHTS = WEAPONS.map((w) => WEAPON_CLASSES[w.weaponClass].weight);

export interface Timing {
  durationMs: number;
  matchStartAt: number;
  finalAt: number;
  teamSize: number;
}

const attackId = (random: Random): number => random.int(1_000_000, 1_900_000_000);

/** Gives every death a cause and, for deaths by player, a killer (and knocker and assistants). */
export function resolveDeaths(
  random: Random,
  fighters: Fighter[],
  members: number[][],
  map: DemoMap,
  timing: Timing,
): Death[] {
  const order = fighters
    .filter((f) => f.diedAt !== null)
    .sort((a, b) => a.diedAt! - b.diedAt! || a.index - b.index);
  const lastKillerOf = new Map<number, { killer: number; at: number }>();
  const deaths: Death[] = [];
  for (const victim of order) {
    const at = victim.diedAt!;
    const death = newDeath(at, victim.index, 'player', attackId(random));
    const mates = members[victim.roster]!.filter(
      (i) => i !== victim.index && alive(fighters[i]!, at),
    );
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
      killer = pickFighter(
        random,
        fighters,
        (f) => f.roster !== victim.roster && alive(f, at) && (!final || f.diedAt === null),
        (f) => (f.power * (f.index === streak ? 3 : 1)) / (1 + 0.12 * f.kills),
      );
      if (killer) lastKillerOf.set(victim.roster, { killer: killer.index, at });
    }
    if (killer === null) {
      death.cause = random.chance(0.12) ? 'redzone' : 'bluezone';
      deaths.push(death);
      continue;
    }
    death.teamKill = teamKill;
    const knocked = timing.teamSize > 1 && mates.length > 0 && !teamKill;
    deaths.push(playerKill(random, fighters, members, map, death, killer, knocked));
  }
  return deaths;
}

function pickWeapon(random: Random, f: Fighter): Weapon {
  return random.chance(0.82)
    ? random.pick(f.loadout)
    : WEAPONS[random.weightedIndex(CLASS_WEIGHTS)]!;
}

function makeHit(random: Random, attacker: Fighter, victim: Fighter, at: number): Hit {
  const weapon = pickWeapon(random, attacker);
  const gun = weapon.damageTypeCategory === 'Damage_Gun';
  const pHead = Math.min(
    0.45,
    Math.max(0.03, 0.13 + 0.06 * attacker.skill + (weapon.weaponClass === 'sr' ? 0.15 : 0)),
  );
  return {
    at,
    attacker: attacker.index,
    victim: victim.index,
    weapon,
    metres: hitMetres(random, weapon),
    headshot: gun && random.chance(pHead),
    attackId: attackId(random),
  };
}

/** A death by another player's hand: the knock before it (team modes), the finish, the credit. */
function playerKill(
  random: Random,
  fighters: Fighter[],
  members: number[][],
  map: DemoMap,
  death: Death,
  killer: Fighter,
  knocked: boolean,
): Death {
  const victim = fighters[death.victim]!;
  const at = death.at;
  if (death.teamKill) {
    killer.teamKills++;
    death.killer = killer.index;
    death.hit = makeHit(random, killer, victim, at);
    return death;
  }
  if (!knocked && random.chance(0.012)) {
    const vehicleId = random.pick(map.vehicles.filter((v) => !FLOATING_VEHICLES.has(v)));
    credit(random, killer, at, random.float(0.5, 6), false, 110);
    killer.roadKills++;
    death.killer = killer.index;
    death.vehicleId = vehicleId;
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
    const helpers = members[killer.roster]!.filter(
      (i) => i !== killer.index && alive(fighters[i]!, knockAt),
    );
    const maker =
      helpers.length > 0 && random.chance(0.22) ? fighters[random.pick(helpers)]! : killer;
    knock = makeKnock(random, makeHit(random, maker, victim, Math.min(knockAt, at - 500)), null);
    maker.dbnos++;
    maker.damage += random.float(80, 135);
    if (random.chance(0.07) && alive(maker, at)) {
      bleedOut = true;
      credited = maker;
    }
  }
  const hit = bleedOut ? null : makeHit(random, killer, victim, at);
  if (hit && knock)
    hit.metres = Math.min(hit.metres, Math.round(random.float(1, 40) * 1000) / 1000);
  const metres = hit?.metres ?? knock!.metres;
  credit(
    random,
    credited,
    at,
    metres,
    (hit ?? knock)!.headshot,
    knock ? random.float(5, 60) : random.float(60, 115),
  );

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
    fighters[i]!.assists++;
    fighters[i]!.damage += random.float(15, 70);
  }
  death.killer = credited.index;
  death.hit = hit;
  death.knock = knock;
  death.bleedOut = bleedOut;
  death.assists = assists;
  return death;
}

function credit(
  random: Random,
  killer: Fighter,
  at: number,
  metres: number,
  headshot: boolean,
  damage: number,
): void {
  killer.kills++;
  killer.killTimes.push(at);
  killer.longestKill = Math.max(killer.longestKill, metres);
  if (headshot) killer.headshotKills++;
  killer.damage += damage + random.float(0, 10);
}

/** Knocks that end in a revive by a teammate; the victim fights on. */
export function addRevives(
  random: Random,
  fighters: Fighter[],
  members: number[][],
  deaths: readonly Death[],
  durationMs: number,
): Knock[] {
  const finalKnock = new Map(deaths.filter((d) => d.knock).map((d) => [d.victim, d.knock!.at]));
  const busy = new Map<number, number>();
  const knocks: Knock[] = [];
  const wanted = random.poisson(fighters.length * (members.some((m) => m.length > 2) ? 0.2 : 0.11));
  for (let attempt = 0; attempt < wanted * 3 && knocks.length < wanted; attempt++) {
    const victim = random.pick(fighters);
    if (members[victim.roster]!.length < 2) continue;
    const end = finalKnock.get(victim.index) ?? victim.diedAt ?? durationMs;
    const from = Math.max(victim.landedAt + 30_000, busy.get(victim.index) ?? 0);
    if (end - 45_000 <= from) continue;
    const at = Math.round(from + (end - 45_000 - from) * random.next());
    const revivedAt = at + random.int(6_000, 20_000);
    const revivers = members[victim.roster]!.filter(
      (i) =>
        i !== victim.index && alive(fighters[i]!, at) && alive(fighters[i]!, revivedAt + 5_000),
    );
    if (revivers.length === 0) continue;
    const knocker = pickFighter(
      random,
      fighters,
      (f) => f.roster !== victim.roster && alive(f, at),
      (f) => f.power,
    );
    if (!knocker) continue;
    const reviver = fighters[random.pick(revivers)]!;
    knocks.push(
      makeKnock(random, makeHit(random, knocker, victim, at), {
        at: revivedAt,
        reviver: reviver.index,
      }),
    );
    knocker.dbnos++;
    knocker.damage += random.float(80, 135);
    reviver.revives++;
    busy.set(victim.index, revivedAt + 20_000);
  }
  return knocks;
}
