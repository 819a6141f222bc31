/**
 * Telemetry of one fighter's life: the landing, a little loot, a ride when they drove, and
 * positions every couple of minutes until they die (or the match ends).
 */
import type { Fighter } from './fighters.ts';
import { FLOATING_VEHICLES, GEAR } from './game-catalogue.ts';
import { quarter } from './telemetry-world.ts';
import { weaponItem, type Fields, type TelemetryWriter } from './telemetry-writer.ts';

/** One fighter's landing, loot, ride and positions (every 105–135 s; 40–60 s in an arena). */
export function emitLife(t: TelemetryWriter, f: Fighter): void {
  const { random, world } = t;
  const { battle, arena } = t.input;
  const i = f.index;
  const end = f.diedAt ?? battle.durationMs - 1_000;
  if (!arena) {
    t.emit(f.landedAt, {
      _T: 'LogParachuteLanding',
      character: t.character(i, f.landedAt),
      distance: t.parachute[i]!,
      common: null,
      _D: '',
    });
    loot(t, f, end);
    ride(t, f, end);
  }
  // Sparser than the real ten seconds: enough to follow a player, cheap enough to load in a minute.
  const [low, high] = arena ? [40_000, 60_000] : [150_000, 210_000];
  for (let at = f.landedAt + random.int(15_000, 80_000); at < end; at += random.int(low, high)) {
    t.emit(at, {
      _T: 'LogPlayerPosition',
      character: t.character(i, at, { health: quarter(random.float(35, 100)) }),
      vehicle: null,
      elapsedTime: Math.round((at - battle.matchStartAt) / 1000),
      numAlivePlayers: world.aliveCount(at),
      common: null,
      _D: '',
    });
  }
}

/** The first gun picked up and equipped, a second gun for the well-armed, now and then some gear. */
function loot(t: TelemetryWriter, f: Fighter, end: number): void {
  const { random } = t;
  const acquired = t.input.stats[f.index]!.weaponsAcquired;
  const pickup = (at: number, item: Fields, equip: boolean): void => {
    if (at >= end) return;
    t.emit(at, {
      _T: 'LogItemPickup',
      character: t.character(f.index, at),
      item,
      common: null,
      _D: '',
    });
    const equipAt = at + random.int(300, 1_500);
    if (equip && equipAt < end)
      t.emit(equipAt, {
        _T: 'LogItemEquip',
        character: t.character(f.index, equipAt),
        item,
        common: null,
        _D: '',
      });
  };
  if (acquired > 0) pickup(f.landedAt + random.int(3_000, 25_000), weaponItem(f.loadout[0]), true);
  if (acquired > 3)
    pickup(f.landedAt + random.int(30_000, 180_000), weaponItem(f.loadout[1]), false);
  if (random.chance(0.25)) {
    const gear = random.pick(GEAR);
    pickup(
      f.landedAt + random.int(8_000, 60_000),
      {
        itemId: gear.itemId,
        stackCount: 1,
        category: gear.category,
        subCategory: gear.subCategory,
        attachedItems: [],
      },
      false,
    );
  }
}

/** A ride for a fighter who drove, and the odd vehicle they destroyed. */
function ride(t: TelemetryWriter, f: Fighter, end: number): void {
  const { random } = t;
  const s = t.input.stats[f.index]!;
  if (s.rideDistance <= 0) return;
  const vehicleId = random.pick(t.input.map.vehicles);
  const seatIndex = random.chance(0.6) ? 0 : random.int(1, 3);
  const floating = FLOATING_VEHICLES.has(vehicleId);
  const vehicle = (healthPercent: number, seat: number): Fields => ({
    vehicleType: floating ? 'FloatingVehicle' : 'WheeledVehicle',
    vehicleId,
    healthPercent,
    feulPercent: quarter(random.float(20, 100)),
    altitudeAbs: 0,
    altitudeRel: 0,
    velocity: 0,
    seatIndex: seat,
    isWheelsInAir: false,
    isInWaterVolume: floating,
    isEngineOn: true,
  });
  const rideMs = Math.round((s.rideDistance / random.float(11, 19)) * 1000);
  const start = Math.max(
    f.landedAt + 5_000,
    Math.min(f.landedAt + random.int(30_000, 200_000), end - 2_000 - rideMs),
  );
  const leave = Math.min(end - 1_000, start + rideMs);
  if (leave > start) {
    t.emit(start, {
      _T: 'LogVehicleRide',
      character: t.character(f.index, start),
      vehicle: vehicle(100, seatIndex),
      seatIndex,
      fellowPassengers: [],
      common: null,
      _D: '',
    });
    t.emit(leave, {
      _T: 'LogVehicleLeave',
      character: t.character(f.index, leave),
      vehicle: vehicle(quarter(random.float(30, 100)), seatIndex),
      rideDistance: quarter(s.rideDistance),
      seatIndex,
      maxSpeed: quarter(random.float(60, 140)),
      fellowPassengers: [],
      common: null,
      _D: '',
    });
  }
  if (s.vehicleDestroys > 0) {
    const at = random.int(f.landedAt + 10_000, Math.max(f.landedAt + 10_001, end - 1_000));
    t.emit(at, {
      _T: 'LogVehicleDestroy',
      attackId: random.int(1_000_000, 1_900_000_000),
      attacker: t.character(f.index, at),
      vehicle: vehicle(0, -1),
      damageTypeCategory: 'Damage_Gun',
      damageCauserName: f.loadout[0].causer,
      distance: quarter(random.float(1_000, 15_000)),
      common: null,
      _D: '',
    });
  }
}
