/**
 * When each fighter drives and swims: their `rideDistance` and `swimDistance` (participant
 * stats, metres) cut into a trip or a few, laid out in the time they were alive on the ground
 * without overlapping. The rides' LogVehicleLeave.rideDistance and the swims'
 * LogSwimEnd.swimDistance add up to the stats exactly (the last piece takes the remainder).
 */
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
  for (let k = 0; k < count - 1; k++) {
    const piece = Math.round(left * random.float(0.25, 0.6) * 4) / 4;
    out.push(piece);
    left -= piece;
  }
  out.push(total - out.reduce((a, b) => a + b, 0));
  return out;
}

/** Every fighter's trips in time order; sets the writer's `inVehicle`. */
export function planTravel(t: TelemetryWriter): Trip[][] {
  const { random, fighters } = t;
  const { stats, battle, map, arena } = t.input;
  const land = map.vehicles.filter((v) => !FLOATING_VEHICLES.has(v));
  const boats = map.vehicles.filter((v) => FLOATING_VEHICLES.has(v));
  const trips = fighters.map((f): Trip[] => {
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
    const busy = list.reduce((sum, trip) => sum + trip.end * 1000, 0);
    const squeeze = busy > window * 0.8 ? (window * 0.8) / busy : 1;
    const gaps = list.map(() => random.next());
    const gapTotal = gaps.reduce((a, b) => a + b, 0) + random.next();
    const free = window - busy * squeeze;
    let at = from;
    list.forEach((trip, k) => {
      const length = trip.end * 1000 * squeeze;
      at += (free * gaps[k]!) / gapTotal;
      trip.start = Math.round(at);
      trip.end = Math.round(at + length);
      trip.speed /= squeeze;
      at += length;
    });
    return list;
  });
  const first = trips.flat().find((trip) => trip.kind === 'ride');
  if (first) first.showcase = true;
  const flight = t.world.flight;
  t.inVehicle = (i, at) => {
    if (flight && at >= battle.matchStartAt && at < flight.jumpAt[i]!) return true;
    for (const trip of trips[i]!)
      if (trip.kind === 'ride' && trip.start <= at && at < trip.end) return true;
    return false;
  };
  return trips;
}

/** The ride fighter `i` is on at `at`, if any. */
export function rideAt(trips: readonly Trip[], at: number): Trip | null {
  for (const trip of trips)
    if (trip.kind === 'ride' && trip.start <= at && at < trip.end) return trip;
  return null;
}
