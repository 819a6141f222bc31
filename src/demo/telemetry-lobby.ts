/**
 * Telemetry of the start and the end of a match: logins and characters on the starting island,
 * LogMatchStart, everyone boarding the aircraft (LogVehicleRide) and jumping out
 * (LogVehicleLeave, flown distance), LogParachuteLanding; and LogMatchEnd with every character's
 * final placement, the winners' results and every weapon's figures.
 */
import type { Fighter } from './fighters.ts';
import { quarter } from './telemetry-world.ts';
import type { WeaponTally } from './telemetry-tally.ts';
import type { TelemetryWriter } from './telemetry-writer.ts';
import { vehicleObject } from './vehicles.ts';

export function emitLobby(t: TelemetryWriter): void {
  const { random, world } = t;
  const { battle, map, arena } = t.input;
  const start = battle.matchStartAt;
  const spots = t.fighters.map(() => world.lobbySpot(random));
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
  t.emit(start, {
    _T: 'LogMatchStart',
    mapName: map.name,
    weatherId: random.pick(map.weathers),
    characters: t.fighters.map((f) => t.wrapper(t.character(f.index, start), arena ? f : null)),
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
  const { battle, map } = t.input;
  const start = battle.matchStartAt;
  const flight = world.flight!;
  const jumpAt = flight.jumpAt[f.index]!;
  const plane = (at: number) =>
    vehicleObject({
      vehicleId: map.aircraft,
      seatIndex: 0,
      healthPercent: 100,
      feulPercent: 100,
      velocity: 90,
      location: world.position(f.index, at),
    });
  // The default profile leaves the boarding and the jump out (positions show the flight).
  if (t.profile.name === 'full') {
    const seat = { seatIndex: 0, fellowPassengers: [] };
    t.emit(start, {
      _T: 'LogVehicleRide',
      character: t.character(f.index, start),
      vehicle: plane(start),
      ...seat,
      common: null,
      _D: '',
    });
    t.emit(jumpAt, {
      _T: 'LogVehicleLeave',
      character: t.character(f.index, jumpAt),
      vehicle: plane(jumpAt),
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

/** LogMatchEnd: every character with their final placement, the winners' results, the weapons. */
export function emitEnd(
  t: TelemetryWriter,
  tally: WeaponTally,
  individual: readonly number[],
): void {
  const { battle, stats } = t.input;
  const at = battle.durationMs;
  const winners = battle.rosters.find((r) => r.rank === 1)!;
  const kills = (i: number): number => t.fighters[i]!.kills;
  t.emit(at, {
    _T: 'LogMatchEnd',
    characters: t.fighters.map((f) => {
      const dead = f.diedAt !== null;
      const character = t.character(f.index, at, {
        health: dead ? 0 : undefined,
        location: dead ? { x: 0, y: 0, z: 0 } : undefined,
        ranking: stats[f.index]!.winPlace,
        individualRanking: individual[f.index]!,
      });
      return t.wrapper(character, f);
    }),
    gameResultOnFinished: {
      results: winners.members.map((i) => ({
        rank: 1,
        gameResult: '',
        teamId: t.fighters[i]!.teamId,
        stats: t.resultStats(i, kills(i)),
        accountId: t.fighters[i]!.playerId,
        isRewardAbuse: false,
      })),
    },
    allWeaponStats: tally.allWeaponStats(t),
    common: null,
    _D: '',
  });
}
