/**
 * Vehicles under fire: someone of another team shooting at a ride (LogVehicleDamage, now and
 * then LogWheelDestroy, each after its LogPlayerAttack), and the vehicles a fighter destroys
 * (LogVehicleDestroy — as many as their `vehicleDestroys`).
 */
import type { Fighter } from './fighters.ts';
import { gunInHand, gunItem, type Kit } from './telemetry-kit.ts';
import { quarter } from './telemetry-world.ts';
import type { TelemetryWriter } from './telemetry-writer.ts';
import type { Trip } from './travel-plan.ts';
import { vehicleObject } from './vehicles.ts';

export type VehicleAt = (at: number, health: number, velocity: number) => Record<string, unknown>;

/** Someone of another team shoots at a ride: the damage, now and then a wheel. */
export function shotAt(
  t: TelemetryWriter,
  i: number,
  trip: Trip,
  kits: readonly Kit[],
  vehicle: VehicleAt,
): void {
  const { random } = t;
  const at = Math.round((trip.start + trip.end) / 2);
  const roster = t.fighters[i]!.roster;
  const shooters: Fighter[] = [];
  for (const f of t.fighters)
    if (
      f.roster !== roster &&
      f.landedAt < at &&
      (f.diedAt ?? Infinity) > at &&
      gunInHand(kits[f.index], at) !== null
    )
      shooters.push(f);
  if (shooters.length === 0) return;
  const shooter = random.pick(shooters);
  const gun = gunInHand(kits[shooter.index], at)!;
  const attackId = t.attackId(shooter.index);
  const attacker = t.character(shooter.index, at);
  t.emit(at, {
    _T: 'LogPlayerAttack',
    attackId,
    fireWeaponStackCount: random.int(0, 30),
    attacker,
    attackType: 'Weapon',
    weapon: gunItem(kits[shooter.index], gun, at),
    vehicle: null,
    common: null,
    _D: '',
  });
  const v = vehicle(at, quarter(random.float(40, 95)), quarter(trip.speed));
  const hit = {
    attackId,
    attacker,
    vehicle: v,
    damageTypeCategory: 'Damage_Gun',
    damageCauserName: gun.causer,
  };
  t.emit(at, {
    _T: 'LogVehicleDamage',
    ...hit,
    damage: quarter(random.float(5, 60)),
    distance: quarter(random.float(2_000, 15_000)),
    common: null,
    _D: '',
  });
  if (trip.showcase || random.chance(0.4))
    t.emit(at, { _T: 'LogWheelDestroy', ...hit, common: null, _D: '' });
}

/** Fighter `i` wrecks a vehicle of the map. */
export function wreck(t: TelemetryWriter, i: number, kits: readonly Kit[]): void {
  const { random } = t;
  const f = t.fighters[i]!;
  const end = f.diedAt ?? t.input.battle.durationMs;
  const gun = kits[i]?.guns[0];
  const at =
    Math.max(gun?.at ?? 0, f.landedAt) +
    Math.round(random.next() * (end - Math.max(gun?.at ?? 0, f.landedAt)) * 0.9) +
    500;
  const weapon = gun?.weapon;
  const attackId = t.attackId(i);
  const attacker = t.character(i, at);
  const location = t.world.offset(attacker.location as never, random.float(10, 120), random);
  const v = vehicleObject({
    vehicleId: random.pick(t.input.map.vehicles),
    seatIndex: -1,
    healthPercent: 0,
    feulPercent: quarter(random.float(0, 80)),
    velocity: 0,
    location,
  });
  const category = weapon ? weapon.damageTypeCategory : 'Damage_Explosion_Vehicle';
  const causer = weapon ? weapon.causer : '';
  if (weapon)
    t.emit(at, {
      _T: 'LogPlayerAttack',
      attackId,
      fireWeaponStackCount: random.int(0, 30),
      attacker,
      attackType: 'Weapon',
      weapon: gunItem(kits[i], weapon, at),
      vehicle: null,
      common: null,
      _D: '',
    });
  t.emit(at, {
    _T: 'LogVehicleDamage',
    attackId,
    attacker,
    vehicle: v,
    damageTypeCategory: category,
    damageCauserName: causer,
    damage: quarter(random.float(20, 80)),
    distance: quarter(random.float(1_000, 12_000)),
    common: null,
    _D: '',
  });
  t.emit(at, {
    _T: 'LogVehicleDestroy',
    attackId,
    attacker,
    vehicle: v,
    damageTypeCategory: category,
    damageCauserName: causer,
    distance: quarter(random.float(1_000, 12_000)),
    common: null,
    _D: '',
  });
}
