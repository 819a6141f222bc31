/**
 * What each fighter carries and when they got it: every gun or melee weapon they hit anyone with,
 * picked up before its first use, and spare pickups up to their `weaponsAcquired`; attachments
 * fitted to their guns (now and then swapped for another); helmets and vests. Planned before any
 * event is written, so that every shot shows the weapon (with the attachments on it then) the
 * fighter really holds, and a broken vest is the one they wore.
 */
import { ATTACHMENTS, GEAR, weaponItem, type Item } from './items.ts';
import type { TelemetryWriter } from './telemetry-writer.ts';
import { isCarriedWeapon, type Weapon } from './weapons.ts';

export interface Fitting {
  item: Item;
  at: number;
  /** When it was taken off again (LogItemDetach); Infinity when it stayed. */
  detachedAt: number;
}

export interface Gun {
  weapon: Weapon;
  /** When it was picked up. */
  at: number;
  /** Unique id of the care package it came out of, when it did. */
  crate?: number;
  fittings: Fitting[];
  /** Weapon items by the set of fittings on it, built on demand. */
  items: Map<string, Item>;
}

export interface Kit {
  guns: Gun[];
  /** Weapons picked up beyond those used; the care packages and the loot take from it. */
  spare: number;
  /** Helmets and vests in the order they were put on (a better one replaces the last). */
  armour: Array<{ item: Item; at: number }>;
}

/** Plans every fighter's kit (in team deathmatch guns come with the spawn kit). */
export function planKits(t: TelemetryWriter): Kit[] {
  const { fighters } = t;
  const { battle } = t.input;
  // Loops and module-level functions, not closures made anew for every match: V8 drops the
  // optimized code of closures that are dead at a full collection and compiles it again.
  const firstUse: Array<Map<Weapon, number>> = [];
  for (let i = 0; i < fighters.length; i++) firstUse.push(new Map());
  for (const hit of battle.hits)
    if (isCarriedWeapon(hit.weapon) && !firstUse[hit.attacker]!.has(hit.weapon))
      firstUse[hit.attacker]!.set(hit.weapon, hit.at);
  const kits: Kit[] = [];
  for (let i = 0; i < fighters.length; i++) kits.push(planKit(t, i, firstUse[i]!));
  ensureASwap(t, kits);
  return kits;
}

/** Fighter `i`'s kit, with `firstUse` the first hit with each weapon they hit anyone with. */
function planKit(t: TelemetryWriter, i: number, firstUse: ReadonlyMap<Weapon, number>): Kit {
  const { random, profile } = t;
  const { battle, stats, arena } = t.input;
  const f = t.fighters[i]!;
  if (arena) return { guns: [], spare: stats[i]!.weaponsAcquired, armour: [] };
  const full = profile.name === 'full';
  const end = f.diedAt ?? battle.durationMs;
  const guns: Gun[] = [];
  for (const [weapon, by] of firstUse) {
    const at = Math.round(f.landedAt + 300 + (by - f.landedAt - 300) * random.float(0.2, 0.9));
    guns.push({ weapon, at, fittings: [], items: new Map() });
  }
  for (const gun of guns) {
    if (gun.weapon.weaponClass === 'melee' || gun.weapon.weaponClass === 'pistol') continue;
    const wanted = full ? random.int(1, 4) : random.int(0, 1);
    let at = gun.at;
    for (let k = 0; k < wanted; k++) {
      at += random.int(2_000, 90_000);
      if (at >= end) break;
      const fitting = { item: random.pick(ATTACHMENTS), at, detachedAt: Infinity };
      gun.fittings.push(fitting);
      // A better one turns up now and then: off with the old, on with the new.
      const swapAt = at + random.int(30_000, 300_000);
      if (random.chance(full ? 0.3 : 0.15) && swapAt < end) {
        fitting.detachedAt = swapAt;
        gun.fittings.push({
          item: random.pick(ATTACHMENTS),
          at: swapAt + 400,
          detachedAt: Infinity,
        });
        at = swapAt + 400;
      }
    }
  }
  const armour: Kit['armour'] = [];
  const pieces = full ? random.int(2, 5) : random.chance(0.2) ? 2 : 1;
  for (let k = 0, at = f.landedAt; k < pieces; k++) {
    at += random.int(4_000, 240_000);
    if (at >= end) break;
    // The second piece upgrades the first (that one is taken off and dropped).
    const slot = k === 1 ? armour[0]!.item.subCategory : random.chance(0.5) ? 'Headgear' : 'Vest';
    const level = k === 0 ? random.int(0, 1) : k === 1 ? 2 : random.int(0, 2);
    armour.push({ item: GEAR[slot as 'Headgear' | 'Vest'][level]!, at });
  }
  return { guns, spare: stats[i]!.weaponsAcquired - guns.length, armour };
}

/** Somebody swaps an attachment in every match that has any (LogItemDetach shows up). */
function ensureASwap(t: TelemetryWriter, kits: Kit[]): void {
  for (const kit of kits)
    for (const gun of kit.guns) for (const f of gun.fittings) if (f.detachedAt !== Infinity) return;
  // The first fitting, in fighter and then gun order, that stays on long enough.
  for (let i = 0; i < kits.length; i++) {
    const fighter = t.fighters[i]!;
    for (const gun of kits[i]!.guns)
      for (const f of gun.fittings) {
        const swapAt = f.at + 20_000;
        if (swapAt + 1_000 >= (fighter.diedAt ?? t.input.battle.durationMs)) continue;
        f.detachedAt = swapAt;
        gun.fittings.push({
          item: t.random.pick(ATTACHMENTS),
          at: swapAt + 400,
          detachedAt: Infinity,
        });
        return;
      }
  }
}

/** The item of `weapon` as the kit holds it at `at` (with the attachments on it then). */
export function gunItem(kit: Kit | undefined, weapon: Weapon, at: number): Item {
  let gun: Gun | undefined;
  for (const g of kit?.guns ?? [])
    if (g.weapon === weapon) {
      gun = g;
      break;
    }
  if (!gun || gun.fittings.length === 0) return weaponItem(weapon);
  let key = '';
  for (let k = 0; k < gun.fittings.length; k++) {
    const f = gun.fittings[k]!;
    if (f.at <= at && at < f.detachedAt) key += `${k},`;
  }
  let found = gun.items.get(key);
  if (!found) {
    const ids: string[] = [];
    for (const f of gun.fittings) if (f.at <= at && at < f.detachedAt) ids.push(f.item.itemId);
    found = weaponItem(weapon, ids);
    gun.items.set(key, found);
  }
  return found;
}

/** A gun the fighter holds at `at`, for shots that are not hits (at vehicles); null if none yet. */
export function gunInHand(kit: Kit | undefined, at: number): Weapon | null {
  let best: Weapon | null = null;
  for (const gun of kit?.guns ?? [])
    if (gun.at <= at && gun.weapon.weaponClass !== 'melee') best = gun.weapon;
  return best;
}

/** The helmet or vest worn at `at`, if any. */
export function armourAt(kit: Kit | undefined, at: number): Item | null {
  let worn: Item | null = null;
  for (const a of kit?.armour ?? []) if (a.at <= at) worn = a.item;
  return worn;
}
