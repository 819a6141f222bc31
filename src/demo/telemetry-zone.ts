/**
 * Telemetry of the play area: LogPhaseChange as each circle is announced and closed in on,
 * LogGameStatePeriodic with the blue zone (`safetyZone*`), the next circle
 * (`poisonGasWarning*`), the active bombardment and the head counts, and the bombardments
 * themselves — bombs falling (attacks without an attacker), LogRedZoneEnded with the drivers
 * caught on the road, LogBlackZoneEnded with those who lived through it.
 */
import type { Bombardment } from './hazards.ts';
import { NO_ITEM } from './items.ts';
import { quarter, type Location } from './telemetry-world.ts';
import type { Fields, TelemetryWriter } from './telemetry-writer.ts';
import type { Circle } from './zones.ts';

const ORIGIN: Location = Object.freeze({ x: 0, y: 0, z: 0 });
const at2d = (c: Circle): Location => ({ x: quarter(c.x), y: quarter(c.y), z: 0 });

/** Phase changes, the periodic game state and the bombardments. */
export function emitZone(t: TelemetryWriter): void {
  const { world, profile } = t;
  const { battle, arena } = t.input;
  const zone = world.zone;
  for (const change of zone?.phaseChanges ?? [])
    t.emit(change.at, {
      _T: 'LogPhaseChange',
      phase: change.phase,
      elapsedTime: 0,
      common: null,
      _D: '',
    });

  const every = arena ? Math.min(30_000, profile.gameStateEveryMs) : profile.gameStateEveryMs;
  const players = t.fighters.length;
  const teams = battle.rosters.length;
  for (let at = battle.matchStartAt + 10_000; at < battle.durationMs; at += every) {
    const safe = zone ? zone.blueAt(at) : world.arenaCircle;
    const white = zone?.whiteAt(at) ?? null;
    const bomb = bombardmentDuring(world.bombardments, at);
    const red = bomb?.kind === 'red' ? bomb : null;
    const black = bomb?.kind === 'black' ? bomb : null;
    t.emit(at, {
      _T: 'LogGameStatePeriodic',
      gameState: {
        elapsedTime: Math.round((at - battle.matchStartAt) / 1000),
        numStartTeams: teams,
        numAliveTeams: world.aliveTeams(at),
        numParticipatedTeams: teams,
        numJoinPlayers: players,
        numStartPlayers: players,
        numAlivePlayers: world.aliveCount(at),
        numParticipatedPlayers: players,
        safetyZonePosition: at2d(safe),
        safetyZoneRadius: quarter(safe.r),
        poisonGasWarningPosition: white ? at2d(white) : ORIGIN,
        poisonGasWarningRadius: white ? quarter(white.r) : 0,
        redZonePosition: red ? at2d(red) : ORIGIN,
        redZoneRadius: red ? red.r : 0,
        blackZonePosition: black ? at2d(black) : ORIGIN,
        blackZoneRadius: black ? black.r : 0,
      },
      common: null,
      _D: '',
    });
  }
  bombardments(t);
}

function bombardments(t: TelemetryWriter): void {
  const { random, world, fighters, profile } = t;
  for (const b of world.bombardments) {
    const bombs = profile.name === 'full' ? random.int(6, 14) : 1;
    for (let k = 0; k < bombs; k++) {
      const at = Math.round(b.startAt + ((k + 0.5) / bombs) * (b.endAt - b.startAt));
      t.emit(at, {
        _T: 'LogPlayerAttack',
        attackId: t.attackId(-1),
        fireWeaponStackCount: 0,
        attacker: t.sentinel,
        attackType: b.kind === 'red' ? 'RedZone' : 'BlackZone',
        weapon: NO_ITEM,
        vehicle: null,
        common: null,
        _D: '',
      });
    }
    const at = b.endAt;
    // Those the event lists, of those alive at its end: the drivers of a red zone, those inside a
    // black zone.
    const listed: number[] = [];
    for (const f of fighters) {
      if (!(f.landedAt < at && (f.diedAt ?? Infinity) > at)) continue;
      if (b.kind === 'red' ? t.inVehicle(f.index, at) : within(world.position(f.index, at), b))
        listed.push(f.index);
    }
    const characters: Fields[] = [];
    for (const i of listed) characters.push(t.character(i, at));
    if (b.kind === 'red')
      t.emit(at, { _T: 'LogRedZoneEnded', drivers: characters, common: null, _D: '' });
    else t.emit(at, { _T: 'LogBlackZoneEnded', survivors: characters, common: null, _D: '' });
  }
}

/** The bombardment going on at `at`, if any. */
function bombardmentDuring(bombardments: readonly Bombardment[], at: number): Bombardment | null {
  for (const b of bombardments) if (b.startAt <= at && at < b.endAt) return b;
  return null;
}

/** Whether `p` is inside the circle of bombardment `b`. */
function within(p: Location, b: Bombardment): boolean {
  return (p.x - b.x) ** 2 + (p.y - b.y) ** 2 <= b.r * b.r;
}
