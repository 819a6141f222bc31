/**
 * Vehicles as telemetry describes them: the modern `Vehicle` object (type, id, seat, health,
 * fuel — spelt `feulPercent` on the wire — altitude, speed, location) and the zeroed sentinel
 * that LogPlayerKillV2 carries for someone on foot.
 */
import type { Location } from './telemetry-world.ts';

/** Vehicle ids that float rather than drive. */
export const FLOATING_VEHICLES: ReadonlySet<string> = new Set([
  'AquaRail_A_01_C',
  'Boat_PG117_C',
  'AirBoat_V2_C',
]);

const AIRCRAFT: ReadonlySet<string> = new Set([
  'DummyTransportAircraft_C',
  'TransportAircraft_Chimera_C',
]);

export function vehicleTypeOf(vehicleId: string): string {
  if (AIRCRAFT.has(vehicleId)) return 'TransportAircraft';
  return FLOATING_VEHICLES.has(vehicleId) ? 'FloatingVehicle' : 'WheeledVehicle';
}

export interface VehicleState {
  vehicleId: string;
  seatIndex: number;
  healthPercent: number;
  feulPercent: number;
  /** Metres per second. */
  velocity: number;
  location: Location;
}

/** A `Vehicle` object in the modern key order. */
export function vehicleObject(s: VehicleState): Record<string, unknown> {
  const type = vehicleTypeOf(s.vehicleId);
  return {
    vehicleType: type,
    vehicleId: s.vehicleId,
    seatIndex: s.seatIndex,
    healthPercent: s.healthPercent,
    feulPercent: s.feulPercent,
    altitudeAbs: type === 'TransportAircraft' ? s.location.z : 0,
    altitudeRel: 0,
    velocity: s.velocity,
    isWheelsInAir: false,
    isInWaterVolume: type === 'FloatingVehicle',
    isEngineOn: true,
    location: s.location,
  };
}

/** The zeroed vehicle of someone on foot (LogPlayerKillV2 victimVehicle / killerVehicle). */
export const ON_FOOT = Object.freeze({
  vehicleType: '',
  vehicleId: '',
  seatIndex: -1,
  healthPercent: 0,
  feulPercent: 0,
  altitudeAbs: 0,
  altitudeRel: 0,
  velocity: 0,
  isWheelsInAir: false,
  isInWaterVolume: false,
  isEngineOn: false,
  location: Object.freeze({ x: 0, y: 0, z: 0 }),
});
