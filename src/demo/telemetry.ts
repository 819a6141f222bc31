/**
 * The telemetry of a simulated match (ENUMS §8–§10): a sparse but consistent event stream —
 * logins, the match start, landings, a little loot, positions every two minutes or so, every
 * knock, revive and death of the battle with the right characters, the zone and game state,
 * and the match end with final placements. About 1,200–1,700 events per 100 players: enough
 * for kill feeds, heat maps and timelines, small enough to generate, gzip and store quickly.
 */
import type { TelemetryEventInput } from '../ingest/match-input.ts';
import type { Random } from './random.ts';
import { emitDeaths, emitKnock } from './telemetry-combat.ts';
import { emitLife } from './telemetry-life.ts';
import { quarter } from './telemetry-world.ts';
import { TelemetryWriter, type TelemetryInput } from './telemetry-writer.ts';

export type { TelemetryInput } from './telemetry-writer.ts';

/** Builds the events of one match, LogMatchDefinition first, then in time order. */
export function buildTelemetry(random: Random, input: TelemetryInput): TelemetryEventInput[] {
  const t = new TelemetryWriter(random, input);
  lobby(t);
  gameState(t);
  for (const f of input.battle.fighters) emitLife(t, f);
  for (const knock of input.battle.knocks) emitKnock(t, knock);
  emitDeaths(t);
  end(t);
  return t.finish();
}

/** Logins and characters on the starting island, then the plane (or the arena) starts. */
function lobby(t: TelemetryWriter): void {
  const { random, world } = t;
  const { battle, map } = t.input;
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
    characters: t.fighters.map((f) =>
      t.wrapper(t.character(f.index, start, { location: spots[f.index]! }), null),
    ),
    cameraViewBehaviour: t.input.fpp ? 'FpsOnly' : 'FpsAndTps',
    teamSize: battle.teamSize,
    isCustomGame: t.input.isCustomGame,
    isEventMode: t.input.isEventMode,
    blueZoneCustomOptions: '[]',
    common: null,
    _D: '',
  });
}

/** Phase changes and the periodic game state (every minute; every 30 s in an arena). */
function gameState(t: TelemetryWriter): void {
  const { world } = t;
  const { battle, arena } = t.input;
  world.phaseChanges.forEach((at, j) =>
    t.emit(at, {
      _T: 'LogPhaseChange',
      phase: Math.floor(j / 2) + 1,
      elapsedTime: 0,
      common: null,
      _D: '',
    }),
  );
  const origin = { x: 0, y: 0, z: 0 };
  for (
    let at = battle.matchStartAt + 10_000;
    at < battle.durationMs;
    at += arena ? 30_000 : 60_000
  ) {
    const { safe, warning } = world.zones(at);
    t.emit(at, {
      _T: 'LogGameStatePeriodic',
      gameState: {
        elapsedTime: Math.round((at - battle.matchStartAt) / 1000),
        numStartTeams: battle.rosters.length,
        numAliveTeams: world.aliveTeams(at),
        numJoinPlayers: t.fighters.length,
        numStartPlayers: t.fighters.length,
        numAlivePlayers: world.aliveCount(at),
        safetyZonePosition: { x: quarter(safe.x), y: quarter(safe.y), z: 0 },
        safetyZoneRadius: quarter(safe.r),
        poisonGasWarningPosition: warning
          ? { x: quarter(warning.x), y: quarter(warning.y), z: 0 }
          : origin,
        poisonGasWarningRadius: warning ? quarter(warning.r) : 0,
        redZonePosition: origin,
        redZoneRadius: 0,
        blackZonePosition: origin,
        blackZoneRadius: 0,
      },
      common: null,
      _D: '',
    });
  }
}

/** LogMatchEnd: every character with its final placement, the winners' results. */
function end(t: TelemetryWriter): void {
  const { battle, stats } = t.input;
  const at = battle.durationMs;
  const winners = battle.rosters.find((r) => r.rank === 1)!;
  t.emit(at, {
    _T: 'LogMatchEnd',
    characters: t.fighters.map((f) =>
      t.wrapper(
        t.character(f.index, at, {
          health: f.diedAt === null ? quarter(t.random.float(20, 100)) : 0,
          ranking: stats[f.index]!.winPlace,
        }),
        f,
      ),
    ),
    gameResultOnFinished: {
      results: winners.members.map((i) => ({
        rank: 1,
        gameResult: '',
        teamId: t.fighters[i]!.teamId,
        stats: t.resultStats(i, t.fighters[i]!.kills),
        accountId: t.fighters[i]!.playerId,
      })),
    },
    common: null,
    _D: '',
  });
}
