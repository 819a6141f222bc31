/**
 * Builders of valid ingest inputs for tests: a match of N rosters × M players with deterministic
 * ids, names and stats, any part overridable. Player k (0-based across the whole match) is
 * `accountId(k)` named `Player<k>` by default, so matches built with the defaults share their
 * players — handy for tests of aggregates.
 */
import crypto from 'node:crypto';
import type {
  MatchInput,
  ParticipantInput,
  ParticipantStatsInput,
  TelemetryEventInput,
} from '../../src/ingest/match-input.ts';

/** The instant test clocks stand at; DEFAULT_CREATED_AT is a day earlier. */
export const TEST_NOW = Date.parse('2026-11-21T12:00:00Z');
export const DEFAULT_CREATED_AT = '2026-11-20T12:00:00Z';

const hex = (seed: string): string => crypto.createHash('sha256').update(seed).digest('hex');

/** A deterministic account id (`account.<32 hex>`) for a number or name. */
export function accountId(seed: number | string): string {
  return `account.${hex(`account:${seed}`).slice(0, 32)}`;
}

/** A deterministic version-4-shaped UUID for a number or name (a match id, a roster id …). */
export function testUuid(seed: number | string): string {
  const h = hex(`uuid:${seed}`);
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Where a participant sits: roster index, index in the roster, index across the match. */
export interface Seat {
  roster: number;
  member: number;
  index: number;
}

export interface MatchBuilderOptions {
  /** Seeds the match id (default 1): different seeds, different matches. */
  seed?: number | string;
  rosters?: number;
  playersPerRoster?: number;
  /** The player at a seat (default: `accountId(index)`, `Player<index>`). */
  player?: (seat: Seat) => Partial<Pick<ParticipantInput, 'playerId' | 'name' | 'shardId' | 'id'>>;
  /** Stats overrides per seat, applied over the defaults of `defaultStats`. */
  stats?: (seat: Seat) => Partial<ParticipantStatsInput>;
  /** Roster that wins (default 0); rank = position + 1 with the winner moved to rank 1. */
  winner?: number;
  /** Adds a few telemetry events (true) or exactly these. */
  telemetry?: boolean | TelemetryEventInput[];
  /** Top-level fields, applied last (e.g. createdAt, gameMode, platformShard + regionShard). */
  overrides?: Partial<MatchInput>;
}

/** Plausible stats for a seat: the numbers differ per seat so sums are meaningful. */
export function defaultStats(seat: Seat, rank: number, won: boolean): ParticipantStatsInput {
  const i = seat.index;
  return {
    DBNOs: i % 3,
    assists: i % 2,
    boosts: (i * 3) % 7,
    damageDealt: 100 + i * 12.5,
    deathType: won ? 'alive' : 'byplayer',
    headshotKills: i % 2,
    heals: i % 4,
    killPlace: i + 1,
    killStreaks: i % 3,
    kills: (i * 7) % 5,
    longestKill: 10 + i * 1.25,
    revives: i % 2,
    rideDistance: i * 100,
    roadKills: 0,
    swimDistance: i * 0.5,
    teamKills: 0,
    timeSurvived: 600 + i * 10,
    vehicleDestroys: 0,
    walkDistance: 1000 + i * 25.5,
    weaponsAcquired: 3 + (i % 4),
    winPlace: rank,
  };
}

/** A valid match in the ingest format. */
export function makeMatchInput(options: MatchBuilderOptions = {}): MatchInput {
  const seed = options.seed ?? 1;
  const rosterCount = options.rosters ?? 2;
  const size = options.playersPerRoster ?? 2;
  const winner = options.winner ?? 0;
  const createdAt = options.overrides?.createdAt ?? DEFAULT_CREATED_AT;
  let index = 0;
  const rosters = Array.from({ length: rosterCount }, (_, r) => {
    const rank = r === winner ? 1 : r < winner ? r + 2 : r + 1;
    const won = r === winner;
    const participants = Array.from({ length: size }, (_, member): ParticipantInput => {
      const seat = { roster: r, member, index: index++ };
      const player = options.player?.(seat) ?? {};
      return {
        playerId: player.playerId ?? accountId(seat.index),
        name: player.name ?? `Player${seat.index}`,
        ...(player.shardId ? { shardId: player.shardId } : {}),
        ...(player.id ? { id: player.id } : {}),
        stats: { ...defaultStats(seat, rank, won), ...options.stats?.(seat) },
      };
    });
    return { teamId: r + 1, rank, won, participants };
  });
  const match: MatchInput = {
    id: testUuid(`match:${seed}`),
    platformShard: 'pc-b',
    regionShard: 'pc-eu',
    createdAt,
    duration: 1800,
    gameMode: size === 1 ? 'solo' : size === 2 ? 'duo' : 'squad',
    mapName: 'Baltic_Main',
    matchType: 'official',
    isCustomMatch: false,
    seasonState: 'progress',
    rosters,
  };
  if (options.telemetry) {
    match.telemetry =
      options.telemetry === true
        ? sampleTelemetry(match.id, Date.parse(createdAt))
        : options.telemetry;
  }
  return { ...match, ...options.overrides };
}

/** A few telemetry events of a match starting at `start` (epoch ms). */
export function sampleTelemetry(matchId: string, start: number): TelemetryEventInput[] {
  const at = (seconds: number): string => new Date(start + seconds * 1000).toISOString();
  const event = (e: TelemetryEventInput & Record<string, unknown>): TelemetryEventInput => e;
  return [
    event({
      _T: 'LogMatchDefinition',
      _D: at(60),
      MatchId: `match.bro.official.pc-2018-45.steam.duo.eu.${matchId}`,
      PingQuality: 'low',
      SeasonState: 'progress',
    }),
    event({ _T: 'LogMatchStart', _D: at(60), common: { isGame: 0 }, mapName: 'Baltic_Main' }),
    event({
      _T: 'LogGameStatePeriodic',
      _D: at(600),
      common: { isGame: 1 },
      gameState: { numAlivePlayers: 3 },
    }),
    event({ _T: 'LogMatchEnd', _D: at(1800), common: { isGame: 8 }, characters: [] }),
  ];
}

/** Every participant of a match, in roster order. */
export function participantsOf(match: MatchInput): ParticipantInput[] {
  return match.rosters.flatMap((roster) => roster.participants);
}
