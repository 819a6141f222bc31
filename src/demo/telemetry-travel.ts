/**
 * Telemetry of getting around: every fighter's rides (LogVehicleRide / LogVehicleLeave, whose
 * rideDistance add up to the stats), swims (LogSwimStart / LogSwimEnd), fuel, things kept in a
 * trunk, and the damage rides take.
 */
import { AMMO, FUEL } from './items.ts';
import type { Kit } from './telemetry-kit.ts';
import { shotAt, wreck } from './telemetry-vehicle-damage.ts';
import { quarter } from './telemetry-world.ts';
import type { TelemetryWriter } from './telemetry-writer.ts';
import type { Trip } from './travel-plan.ts';
import { vehicleObject } from './vehicles.ts';

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
