/**
 * Care packages: one dropped into each of the first circles, plus those players call with a
 * flare gun (not in ranked, esports or tournament play). Each spawns in the air
 * (LogCarePackageSpawn), lands a minute later where it was dropped (LogCarePackageLand) and is
 * usually looted (LogItemPickupFromCarepackage, with the package's unique id). A crate weapon
 * somebody fought with came out of a crate when one had landed in time.
 */
import { AMMO, CRATE_EXTRAS, FLARE_GUN_ITEM, weaponItem, type Item } from './items.ts';
import type { Random } from './random.ts';
import type { Kit } from './telemetry-kit.ts';
import { quarter, type Location } from './telemetry-world.ts';
import type { TelemetryWriter } from './telemetry-writer.ts';
import { CRATE_WEAPONS, WEAPONS } from './weapons.ts';

export interface Crate {
  id: number;
  flare: boolean;
  spawnAt: number;
  landAt: number;
  location: Location;
  items: Item[];
  /** Who loots it, when, and which of its items. */
  looter: { index: number; at: number; items: Item[] } | null;
}

const CRATE_GUNS = WEAPONS.filter((w) => CRATE_WEAPONS.has(w.itemId));

function contents(random: Random): Item[] {
  const gun = random.pick(CRATE_GUNS);
  const extras = random.shuffle([...CRATE_EXTRAS]).slice(0, random.int(2, 4));
  return [weaponItem(gun), ...extras, random.pick(AMMO)];
}

/** Plans the match's crates: airdrops, flare-gun calls, their looters (who may take a weapon). */
export function planCrates(t: TelemetryWriter, kits: Kit[]): Crate[] {
  const { random, world, fighters } = t;
  const { battle, hazards } = t.input;
  const zone = world.zone;
  if (!zone) return [];
  const crates: Crate[] = [];
  let id = random.int(100_000, 900_000);
  const drop = (at: number, x: number, y: number, flare: boolean): Crate => {
    const landAt = at + random.int(45_000, 80_000);
    const crate: Crate = {
      id: id++,
      flare,
      spawnAt: at,
      landAt,
      location: { x: quarter(x), y: quarter(y), z: quarter(world.ground(x, y)) },
      items: contents(random),
      looter: null,
    };
    crates.push(crate);
    return crate;
  };
  for (let k = 0; k < Math.min(4, zone.announcedAt.length); k++) {
    const at = zone.announcedAt[k]! + random.int(30_000, 120_000);
    if (at > battle.durationMs - 120_000) break;
    const white = zone.circles[k + 1]!;
    const angle = random.float(0, 2 * Math.PI);
    const r = Math.sqrt(random.next()) * white.r * 0.8;
    drop(at, white.x + Math.cos(angle) * r, white.y + Math.sin(angle) * r, false);
  }
  const flareUsers = new Map<Crate, number>();
  if (hazards) {
    const wanted = fighters.length >= 48 ? random.int(1, 2) : random.int(0, 1);
    for (const f of random.shuffle([...fighters])) {
      if (flareUsers.size >= wanted) break;
      const end = (f.diedAt ?? battle.durationMs) - 150_000;
      if (kits[f.index]!.spare < 1 || end < f.landedAt + 60_000) continue;
      kits[f.index]!.spare--;
      const firedAt = random.int(f.landedAt + 60_000, end);
      const p = world.position(f.index, firedAt);
      const crate = drop(firedAt + random.int(15_000, 30_000), p.x + 2_000, p.y - 1_500, true);
      flareUsers.set(crate, f.index);
      t.flareGuns.push({
        index: f.index,
        pickedAt: random.int(f.landedAt + 5_000, firedAt - 5_000),
        firedAt,
      });
    }
  }
  for (const [k, crate] of crates.entries()) {
    if (k > 0 && !random.chance(0.85)) continue;
    const caller = flareUsers.get(crate);
    const at = Math.min(crate.landAt + random.int(15_000, 120_000), battle.durationMs - 10_000);
    if (at <= crate.landAt) continue;
    const candidates = fighters.filter(
      (f) => f.landedAt < at && (f.diedAt ?? Infinity) > at + 8_000,
    );
    if (candidates.length === 0) continue;
    const index =
      caller !== undefined && random.chance(0.7) && candidates.includes(fighters[caller]!)
        ? caller
        : random.pick(candidates).index;
    const kit = kits[index]!;
    const takeGun = kit.spare > 0 && random.chance(0.7);
    if (takeGun) kit.spare--;
    const items = crate.items.filter((_, k) => (k === 0 ? takeGun : random.chance(0.7)));
    crate.looter = { index, at, items };
  }
  // A crate weapon someone fought with came out of a crate that had landed by then.
  for (const kit of kits)
    for (const gun of kit.guns) {
      if (!CRATE_WEAPONS.has(gun.weapon.itemId)) continue;
      const crate = crates.find((c) => c.landAt < gun.at - 2_000);
      if (!crate) continue;
      gun.crate = crate.id;
      const item = weaponItem(gun.weapon);
      if (!crate.items.includes(item)) crate.items.push(item);
    }
  return crates;
}

/** The spawn, landing and looting of every crate, and the flare-gun shots that called some. */
export function emitCrates(t: TelemetryWriter, crates: readonly Crate[]): void {
  for (const crate of crates) {
    const itemPackageId = crate.flare ? 'Carapackage_FlareGun_C' : 'Carapackage_RedBox_C';
    const air = { ...crate.location, z: quarter(30_000 + t.random.float(0, 5_000)) };
    t.emit(crate.spawnAt, {
      _T: 'LogCarePackageSpawn',
      itemPackage: { itemPackageId, location: air, items: crate.items },
      common: null,
      _D: '',
    });
    t.emit(crate.landAt, {
      _T: 'LogCarePackageLand',
      itemPackage: { itemPackageId, location: crate.location, items: crate.items },
      common: null,
      _D: '',
    });
    const looter = crate.looter;
    if (!looter) continue;
    looter.items.forEach((item, k) => {
      const at = looter.at + k * 700;
      t.emit(at, {
        _T: 'LogItemPickupFromCarepackage',
        character: t.character(looter.index, at),
        item,
        carePackageUniqueId: crate.id,
        common: null,
        _D: '',
      });
    });
  }
  for (const flare of t.flareGuns) {
    t.emit(flare.pickedAt, {
      _T: 'LogItemPickup',
      character: t.character(flare.index, flare.pickedAt),
      item: FLARE_GUN_ITEM,
      common: null,
      _D: '',
    });
    const attackId = t.attackId(flare.index);
    const attacker = t.character(flare.index, flare.firedAt);
    t.emit(flare.firedAt, {
      _T: 'LogPlayerAttack',
      attackId,
      fireWeaponStackCount: 0,
      attacker,
      attackType: 'Weapon',
      weapon: FLARE_GUN_ITEM,
      vehicle: null,
      common: null,
      _D: '',
    });
    t.emit(flare.firedAt, {
      _T: 'LogPlayerUseFlareGun',
      attackId,
      fireWeaponStackCount: 0,
      attacker,
      attackType: 'Weapon',
      weapon: FLARE_GUN_ITEM,
      common: null,
      _D: '',
    });
  }
}
