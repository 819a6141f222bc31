/**
 * Every fighter's LogPlayerPosition at the profile's interval, from take-off to their death (or
 * the end): in the aircraft, falling, on foot or in the vehicle they sit in — and the blue
 * zone's bite (LogPlayerTakeDamage ticks) whenever a position finds them outside it.
 */
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
