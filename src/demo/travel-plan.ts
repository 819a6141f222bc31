/**
 * When each fighter drives and swims: their `rideDistance` and `swimDistance` (participant
 * stats, metres) cut into a trip or a few, laid out in the time they were alive on the ground
 * without overlapping. The rides' LogVehicleLeave.rideDistance and the swims'
 * LogSwimEnd.swimDistance add up to the stats exactly (the last piece takes the remainder).
 */
import type { Fighter } from './fighters.ts';
import type { FlightPlan } from './flight.ts';
import type { Random } from './random.ts';
import { FLOATING_VEHICLES } from './vehicles.ts';
import type { TelemetryWriter } from './telemetry-writer.ts';

export interface Trip {
  kind: 'ride' | 'swim';
  start: number;
  end: number;
  /** Metres. */
  distance: number;
  vehicleId: string;
  seatIndex: number;
  /** Metres per second, for LogVehicleLeave.maxSpeed and Vehicle.velocity. */
  speed: number;
  fuel: number;
  /** The match's first ride: it shows everything that can happen to one (a trunk, shots). */
  showcase: boolean;
}

/** Pieces of `total` metres: quarter-rounded, the last one the exact remainder. */
function pieces(random: Random, total: number, count: number): number[] {
  const out: number[] = [];
  let left = total;
  let sum = 0;
  for (let k = 0; k < count - 1; k++) {
    const piece = Math.round(left * random.float(0.25, 0.6) * 4) / 4;
    out.push(piece);
    left -= piece;
    sum += piece;
  }
  out.push(total - sum);
  return out;
}

/** Every fighter's trips in time order; gives them to the writer (its `inVehicle` reads them). */
export function planTravel(t: TelemetryWriter): Trip[][] {
  const land: string[] = [];
  const boats: string[] = [];
  for (const v of t.input.map.vehicles) (FLOATING_VEHICLES.has(v) ? boats : land).push(v);
  const trips: Trip[][] = [];
  for (const f of t.fighters) trips.push(planTrips(t, f, land, boats));
  showcaseFirstRide(trips);
  t.trips = trips;
  return trips;
}

/** Fighter `f`'s trips in time order, in `land` vehicles and now and then in `boats`. */
function planTrips(
  t: TelemetryWriter,
  f: Fighter,
  land: readonly string[],
  boats: readonly string[],
): Trip[] {
  const { random } = t;
  const { stats, battle, arena } = t.input;
  const s = stats[f.index]!;
  if (arena || (s.rideDistance <= 0 && s.swimDistance <= 0)) return [];
  const list: Trip[] = [];
  const rides =
    s.rideDistance > 3_000 ? random.int(2, 3) : s.rideDistance > 1_200 ? random.int(1, 2) : 1;
  if (s.rideDistance > 0)
    for (const distance of pieces(random, s.rideDistance, rides)) {
      const vehicleId =
        boats.length > 0 && random.chance(0.08) ? random.pick(boats) : random.pick(land);
      const speed = random.float(11, 24);
      const seatIndex = random.chance(0.6) ? 0 : random.int(1, 3);
      list.push({
        kind: 'ride',
        start: 0,
        end: distance / speed,
        distance,
        vehicleId,
        seatIndex,
        speed,
        fuel: random.float(25, 100),
        showcase: false,
      });
    }
  if (s.swimDistance > 0)
    for (const distance of pieces(random, s.swimDistance, s.swimDistance > 100 ? 2 : 1))
      list.push({
        kind: 'swim',
        start: 0,
        end: distance / 2.6,
        distance,
        vehicleId: '',
        seatIndex: -1,
        speed: 2.6,
        fuel: 0,
        showcase: false,
      });
  random.shuffle(list);
  // Lay the trips out in the time on the ground, squeezed when it is short.
  const end = f.diedAt ?? battle.durationMs - 2_000;
  const from = f.landedAt + Math.min(10_000, (end - f.landedAt) * 0.2);
  const until = end - Math.min(3_000, (end - f.landedAt) * 0.1);
  const window = until - from;
  let busy = 0;
  for (const trip of list) busy += trip.end * 1000;
  const squeeze = busy > window * 0.8 ? (window * 0.8) / busy : 1;
  const gaps: number[] = [];
  let gapTotal = 0;
  for (let k = 0; k < list.length; k++) {
    gaps.push(random.next());
    gapTotal += gaps[k]!;
  }
  gapTotal += random.next();
  const free = window - busy * squeeze;
  let at = from;
  for (let k = 0; k < list.length; k++) {
    const trip = list[k]!;
    const length = trip.end * 1000 * squeeze;
    at += (free * gaps[k]!) / gapTotal;
    trip.start = Math.round(at);
    trip.end = Math.round(at + length);
    trip.speed /= squeeze;
    at += length;
  }
  return list;
}

/** The match's first ride (in fighter order) is its showcase. */
function showcaseFirstRide(trips: readonly Trip[][]): void {
  for (const list of trips)
    for (const trip of list)
      if (trip.kind === 'ride') {
        trip.showcase = true;
        return;
      }
}

/**
 * Whether fighter `i` is in a vehicle at `at`: the aircraft until they jump, or a ride of
 * `trips` (theirs).
 */
export function isInVehicle(
  trips: readonly Trip[],
  flight: FlightPlan | null,
  matchStartAt: number,
  i: number,
  at: number,
): boolean {
  if (flight && at >= matchStartAt && at < flight.jumpAt[i]!) return true;
  return rideAt(trips, at) !== null;
}

/** The ride fighter `i` is on at `at`, if any. */
export function rideAt(trips: readonly Trip[], at: number): Trip | null {
  for (const trip of trips)
    if (trip.kind === 'ride' && trip.start <= at && at < trip.end) return trip;
  return null;
}
