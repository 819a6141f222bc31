/**
 * Telemetry of getting around: every fighter's LogPlayerPosition at the profile's interval from
 * take-off to death (with the vehicle they sit in, and the blue zone's bite when they are caught
 * outside it), their rides (LogVehicleRide / LogVehicleLeave, whose rideDistance add up to the
 * stats), swims (LogSwimStart / LogSwimEnd), things kept in a trunk, vehicles shot at, wheels
 * shot out and vehicles destroyed (as many as each fighter's `vehicleDestroys`).
 */
import { AMMO, FUEL } from './items.ts';
import { gunInHand, gunItem, type Kit } from './telemetry-kit.ts';
import { quarter } from './telemetry-world.ts';
import type { TelemetryWriter } from './telemetry-writer.ts';
import { rideAt, type Trip } from './travel-plan.ts';
import { vehicleObject } from './vehicles.ts';

/** Fighter `i`'s positions, from take-off until they die or the match ends. */
export function emitPositions(t: TelemetryWriter, i: number, trips: readonly Trip[]): void {
  const { random, world, profile } = t;
  const { battle, map, arena } = t.input;
  const f = t.fighters[i]!;
  const end = f.diedAt ?? battle.durationMs;
  const start = battle.matchStartAt;
  const step = profile.positionEveryMs;
  const jitter = Math.min(40, step / 100);
  const jumpAt = world.flight?.jumpAt[i] ?? start;
  for (let at = start + random.int(0, 2_000); at < end; at += step - random.int(0, jitter)) {
    const location = world.position(i, at);
    const trip = rideAt(trips, at);
    const onBoard = !arena && at < jumpAt;
    const vehicle =
      onBoard || trip
        ? vehicleObject({
            vehicleId: onBoard ? map.aircraft : trip!.vehicleId,
            seatIndex: onBoard ? 0 : trip!.seatIndex,
            healthPercent: 100,
            feulPercent: onBoard ? 100 : quarter(trip!.fuel),
            velocity: onBoard ? 90 : quarter(trip!.speed),
            location,
          })
        : null;
    const character = t.character(i, at, { location });
    t.emit(at, {
      _T: 'LogPlayerPosition',
      character,
      vehicle,
      elapsedTime: Math.round((at - start) / 1000),
      numAlivePlayers: world.aliveCount(at),
      common: null,
      _D: '',
    });
    if (character.isInBlueZone && !world.blueVictims.has(i))
      blueTicks(t, i, at, Math.min(end, at + step));
  }
}

/** The blue zone's damage to someone caught outside it, until the next position. */
function blueTicks(t: TelemetryWriter, i: number, from: number, until: number): void {
  const zone = t.world.zone!;
  const tick = t.profile.damageTickMs || until - from;
  for (let at = from; at < until; at += tick)
    t.emit(at, {
      _T: 'LogPlayerTakeDamage',
      attackId: -1,
      attacker: null,
      victim: t.character(i, at, { blue: true }),
      damageTypeCategory: 'Damage_BlueZone',
      damageReason: 'NonSpecific',
      damage: quarter(zone.damagePerSecondAt(at) * (tick / 1000) * 0.5),
      damageCauserName: t.input.map.blueZoneCauser,
      isThroughPenetrableWall: false,
      common: null,
      _D: '',
    });
}

/** Fighter `i`'s rides and swims, and the vehicle damage around them. */
export function emitTrips(
  t: TelemetryWriter,
  i: number,
  trips: readonly Trip[],
  kits: readonly Kit[],
): void {
  const { random } = t;
  for (const trip of trips) {
    if (trip.kind === 'swim') {
      t.emit(trip.start, {
        _T: 'LogSwimStart',
        character: t.character(i, trip.start),
        common: null,
        _D: '',
      });
      t.emit(trip.end, {
        _T: 'LogSwimEnd',
        character: t.character(i, trip.end),
        swimDistance: trip.distance,
        maxSwimDepthOfWater: quarter(random.float(50, 900)),
        common: null,
        _D: '',
      });
      continue;
    }
    const vehicle = (at: number, health: number, velocity: number) =>
      vehicleObject({
        vehicleId: trip.vehicleId,
        seatIndex: trip.seatIndex,
        healthPercent: health,
        feulPercent: quarter(
          Math.max(1, trip.fuel - ((at - trip.start) / (trip.end - trip.start || 1)) * 15),
        ),
        velocity,
        location: t.world.position(i, at),
      });
    const fields = { seatIndex: trip.seatIndex, fellowPassengers: [] };
    t.emit(trip.start, {
      _T: 'LogVehicleRide',
      character: t.character(i, trip.start),
      vehicle: vehicle(trip.start, 100, 0),
      ...fields,
      common: null,
      _D: '',
    });
    const health = quarter(random.float(35, 100));
    // The match's first ride shows everything that can happen to a ride; others now and then.
    if (trip.showcase || random.chance(0.35)) shotAt(t, i, trip, kits, vehicle);
    if (trip.showcase || random.chance(0.15)) {
      const item = random.pick(AMMO);
      const v = vehicle(trip.start + 500, 100, 0);
      t.emit(trip.start + 500, {
        _T: 'LogItemPutToVehicleTrunk',
        character: t.character(i, trip.start + 500),
        vehicle: v,
        item,
        common: null,
        _D: '',
      });
      const back = vehicle(trip.end - 500, health, 0);
      t.emit(trip.end - 500, {
        _T: 'LogItemPickupFromVehicleTrunk',
        character: t.character(i, trip.end - 500),
        vehicle: back,
        item,
        common: null,
        _D: '',
      });
    }
    if (trip.fuel < 40 && random.chance(0.5))
      t.emit(trip.start + 2_000, {
        _T: 'LogItemUse',
        character: t.character(i, trip.start + 2_000),
        item: FUEL,
        common: null,
        _D: '',
      });
    t.emit(trip.end, {
      _T: 'LogVehicleLeave',
      character: t.character(i, trip.end),
      vehicle: vehicle(trip.end, health, quarter(trip.speed * 0.3)),
      rideDistance: trip.distance,
      seatIndex: trip.seatIndex,
      maxSpeed: quarter(trip.speed * 3.6 * random.float(1.1, 1.5)),
      fellowPassengers: [],
      common: null,
      _D: '',
    });
  }
  const wrecks = t.input.stats[i]!.vehicleDestroys;
  for (let k = 0; k < wrecks; k++) wreck(t, i, kits);
}

type VehicleAt = (at: number, health: number, velocity: number) => Record<string, unknown>;

/** Someone of another team shoots at a ride: the damage, now and then a wheel. */
function shotAt(
  t: TelemetryWriter,
  i: number,
  trip: Trip,
  kits: readonly Kit[],
  vehicle: VehicleAt,
): void {
  const { random } = t;
  const at = Math.round((trip.start + trip.end) / 2);
  const shooters = t.fighters.filter(
    (f) =>
      f.roster !== t.fighters[i]!.roster &&
      f.landedAt < at &&
      (f.diedAt ?? Infinity) > at &&
      gunInHand(kits[f.index], at) !== null,
  );
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
function wreck(t: TelemetryWriter, i: number, kits: readonly Kit[]): void {
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
