/**
 * Telemetry of the start and the end of a match: logins and characters on the starting island,
 * LogMatchStart, everyone boarding the aircraft (LogVehicleRide) and jumping out
 * (LogVehicleLeave, flown distance), LogParachuteLanding; and LogMatchEnd with every character's
 * final placement, the winners' results and every weapon's figures.
 */
import type { Fighter } from './fighters.ts';
import { quarter, type Location } from './telemetry-world.ts';
import type { WeaponTally } from './telemetry-tally.ts';
import type { Fields, TelemetryWriter } from './telemetry-writer.ts';
import { vehicleObject } from './vehicles.ts';

export function emitLobby(t: TelemetryWriter): void {
  const { random, world } = t;
  const { battle, map, arena } = t.input;
  const start = battle.matchStartAt;
  const spots: Location[] = [];
  for (let k = 0; k < t.fighters.length; k++) spots.push(world.lobbySpot(random));
  for (const f of t.fighters) {
    let at = random.int(start - 25_000, start - 2_000);
    if (f.player) {
      const login = random.int(Math.max(0, start - 50_000), start - 6_000);
      t.emit(login, { _T: 'LogPlayerLogin', accountId: f.playerId, common: null, _D: '' });
      at = login + random.int(200, 2_000);
    }
    at = Math.max(0, at);
    t.emit(at, {
      _T: 'LogPlayerCreate',
      character: t.character(f.index, at, { location: spots[f.index]! }),
      common: null,
      _D: '',
    });
  }
  const weatherId = random.pick(map.weathers);
  const characters: Fields[] = [];
  for (const f of t.fighters)
    characters.push(t.wrapper(t.character(f.index, start), arena ? f : null));
  t.emit(start, {
    _T: 'LogMatchStart',
    mapName: map.name,
    weatherId,
    characters,
    cameraViewBehaviour: t.input.fpp ? 'FpsOnly' : 'FpsAndTps',
    teamSize: battle.teamSize,
    isCustomGame: t.input.isCustomGame,
    isEventMode: t.input.isEventMode,
    blueZoneCustomOptions: '[]',
    common: null,
    _D: '',
  });
  if (!arena) for (const f of t.fighters) flyIn(t, f);
}

/** Boarding, the jump and the landing. */
function flyIn(t: TelemetryWriter, f: Fighter): void {
  const { world, random } = t;
  const start = t.input.battle.matchStartAt;
  const flight = world.flight!;
  const jumpAt = flight.jumpAt[f.index]!;
  // The default profile leaves the boarding and the jump out (positions show the flight).
  if (t.profile.name === 'full') {
    const seat = { seatIndex: 0, fellowPassengers: [] };
    t.emit(start, {
      _T: 'LogVehicleRide',
      character: t.character(f.index, start),
      vehicle: aircraft(t, f, start),
      ...seat,
      common: null,
      _D: '',
    });
    t.emit(jumpAt, {
      _T: 'LogVehicleLeave',
      character: t.character(f.index, jumpAt),
      vehicle: aircraft(t, f, jumpAt),
      rideDistance: quarter(flight.flownMetres(jumpAt, start)),
      seatIndex: 0,
      maxSpeed: quarter(random.float(320, 330)),
      fellowPassengers: [],
      common: null,
      _D: '',
    });
  }
  t.emit(f.landedAt, {
    _T: 'LogParachuteLanding',
    character: t.character(f.index, f.landedAt),
    distance: t.parachuteCm(f.index),
    common: null,
    _D: '',
  });
}

/** The aircraft with fighter `f` aboard at `at`. */
function aircraft(t: TelemetryWriter, f: Fighter, at: number): Fields {
  return vehicleObject({
    vehicleId: t.input.map.aircraft,
    seatIndex: 0,
    healthPercent: 100,
    feulPercent: 100,
    velocity: 90,
    location: t.world.position(f.index, at),
  });
}

/** LogMatchEnd: every character with their final placement, the winners' results, the weapons. */
export function emitEnd(
  t: TelemetryWriter,
  tally: WeaponTally,
  individual: readonly number[],
): void {
  const { battle, stats } = t.input;
  const at = battle.durationMs;
  const characters: Fields[] = [];
  for (const f of t.fighters) {
    const dead = f.diedAt !== null;
    const character = t.character(f.index, at, {
      health: dead ? 0 : undefined,
      location: dead ? { x: 0, y: 0, z: 0 } : undefined,
      ranking: stats[f.index]!.winPlace,
      individualRanking: individual[f.index]!,
    });
    characters.push(t.wrapper(character, f));
  }
  const results: Fields[] = [];
  for (const roster of battle.rosters) {
    if (roster.rank !== 1) continue;
    for (const i of roster.members) {
      const f = t.fighters[i]!;
      results.push({
        rank: 1,
        gameResult: '',
        teamId: f.teamId,
        stats: t.resultStats(i, f.kills),
        accountId: f.playerId,
        isRewardAbuse: false,
      });
    }
    break;
  }
  t.emit(at, {
    _T: 'LogMatchEnd',
    characters,
    gameResultOnFinished: { results },
    allWeaponStats: tally.allWeaponStats(t),
    common: null,
    _D: '',
  });
}
