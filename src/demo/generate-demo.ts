/**
 * The demo data set: 14 days of realistic matches (with telemetry) between a few thousand
 * generated players on the four game platforms, plus a few esports tournaments — all of it a
 * pure function of (seed, now, scale). Matches are produced lazily, one at a time, in
 * chronological order, so a large data set never sits in memory.
 */
import {
  SEASON_ID_PREFIX,
  seasonAt,
  seasonCatalogue,
  type SeasonDefinition,
} from '../domain/seasons.ts';
import type { Platform } from '../domain/shards.ts';
import type {
  MatchInput,
  ParticipantInput,
  ParticipantStatsInput,
  RosterInput,
} from '../ingest/match-input.ts';
import { simulateBattleRoyale } from './battle.ts';
import type { Battle } from './fighters.ts';
import { demoMap } from './maps.ts';
import { fillLobby } from './lobby.ts';
import { createMatchmaking } from './matchmaking.ts';
import { participantStats } from './participant-stats.ts';
import { createPlayers, type DemoPlayer } from './players.ts';
import { createRandom, deriveSeed, timeUuid } from './random.ts';
import { OLDEST_MATCH_AGE_MS, scheduleMatches, teamSizeOf, type MatchSlot } from './schedule.ts';
import { simulateTeamDeathmatch } from './team-deathmatch.ts';
import type { Random } from './random.ts';
import {
  buildTelemetry,
  buildTelemetryText,
  type TelemetryInput,
  type TelemetryText,
} from './telemetry.ts';
import { TELEMETRY_PROFILE, type TelemetryProfileName } from './telemetry-profile.ts';
import { planTournaments, type DemoTournament } from './tournaments.ts';

export interface DemoOptions {
  seed: number;
  /** The instant the data set is generated for (epoch ms): matches end before it. */
  now: number;
  /** Multiplies the number of matches (players grow with its square root); 1 is the default set. */
  scale: number;
  /**
   * Telemetry profile of every match (default `'default'`); false leaves telemetry out, to
   * inspect results quickly — everything else comes out the same.
   */
  telemetry?: boolean | TelemetryProfileName;
}

export interface DemoPlan {
  /** Every account that plays in the demo: regular players first, then tournament pros. */
  players: readonly DemoPlayer[];
  tournaments: readonly DemoTournament[];
  matchCount: number;
  /** The current pc-b season at `now`. */
  pcbSeason: SeasonDefinition;
  /** The matches in chronological order; every call starts over and yields the same matches. */
  matches(): Generator<MatchInput>;
  /**
   * The same matches with their telemetry apart, as its file's text (null with telemetry off):
   * what the demo's load ingests.
   */
  matchesWithText(): Generator<DemoMatch>;
}

/** A match of `DemoPlan.matchesWithText`: the input without `telemetry`, and its file. */
export interface DemoMatch {
  input: MatchInput;
  telemetry: TelemetryText | null;
}

export const MIN_SCALE = 0.01;

/** Plans the demo data set for a seed, an instant and a scale. */
export function generateDemo(options: DemoOptions): DemoPlan {
  const { seed, now, scale } = options;
  if (!Number.isInteger(seed)) throw new RangeError(`demo seed must be an integer, got ${seed}`);
  if (!Number.isFinite(now)) throw new RangeError(`demo now must be an instant, got ${now}`);
  if (!(scale >= MIN_SCALE) || !Number.isFinite(scale))
    throw new RangeError(`demo scale must be at least ${MIN_SCALE}, got ${scale}`);

  const regular = createPlayers(createRandom(deriveSeed(seed, 'players')), Math.sqrt(scale));
  const tournamentPlan = planTournaments(createRandom(deriveSeed(seed, 'tournaments', now)), {
    seed,
    now,
    count: Math.min(12, Math.max(1, Math.round(4 * scale))),
    firstIndex: regular.length,
  });
  const players = [...regular, ...tournamentPlan.pros];
  const pcbSeason = seasonAt(seasonCatalogue('pc-b', now), now)!;
  const pcbSeasonStart =
    pcbSeason.startsAt !== null && pcbSeason.startsAt > now - OLDEST_MATCH_AGE_MS
      ? pcbSeason.startsAt
      : null;
  const slots = [
    ...scheduleMatches(createRandom(deriveSeed(seed, 'schedule', now, scale)), {
      seed,
      now,
      scale,
      players: regular,
      pcbSeasonStart,
    }),
    ...tournamentPlan.slots,
  ].sort((a, b) => a.createdAt - b.createdAt || a.seed - b.seed);

  const play = <T>(tell: Tell<T>) =>
    playMatches(slots, players, tell, {
      seed,
      now,
      telemetry:
        options.telemetry === false
          ? null
          : options.telemetry === true || options.telemetry === undefined
            ? 'default'
            : options.telemetry,
      pcbSeasonStart,
    });
  return {
    players,
    tournaments: tournamentPlan.tournaments,
    matchCount: slots.length,
    pcbSeason,
    *matches() {
      for (const { input, telemetry } of play(buildTelemetry)) {
        if (telemetry) input.telemetry = telemetry;
        yield input;
      }
    },
    matchesWithText: () => play(buildTelemetryText),
  };
}

/** Tells a match's telemetry in one form or another. */
type Tell<T> = (random: Random, input: TelemetryInput) => T;

function* playMatches<T>(
  slots: readonly MatchSlot[],
  players: readonly DemoPlayer[],
  tell: Tell<T>,
  options: {
    seed: number;
    now: number;
    telemetry: TelemetryProfileName | null;
    pcbSeasonStart: number | null;
  },
): Generator<{ input: MatchInput; telemetry: T | null }> {
  const mm = createMatchmaking(players, options.seed, options.pcbSeasonStart);
  const catalogues = new Map<Platform, SeasonDefinition[]>();
  const seasonSuffix = (platform: Platform, at: number): string => {
    let catalogue = catalogues.get(platform);
    if (!catalogue) catalogues.set(platform, (catalogue = seasonCatalogue(platform, options.now)));
    return (seasonAt(catalogue, at)?.id ?? '').slice(SEASON_ID_PREFIX.length);
  };

  for (const slot of slots) {
    const random = createRandom(slot.seed);
    const id = random.uuid();
    const map = demoMap(slot.mapName);
    const lobby = fillLobby(random, slot, mm);
    const arena = slot.baseMode === null;
    const teamSize = arena ? 8 : teamSizeOf(slot.baseMode!);
    const battle: Battle = arena
      ? simulateTeamDeathmatch(random, lobby, slot.duration)
      : simulateBattleRoyale(random, lobby, map, slot.duration, teamSize);
    const stats = participantStats(random, battle, map, arena);
    for (const f of battle.fighters) {
      if (f.player)
        mm.busyUntil[f.player.index] = slot.createdAt + (f.diedAt ?? battle.durationMs) + 90_000;
    }

    const assetCreatedAt = slot.createdAt + slot.duration * 1000 + random.int(60, 150) * 1000;
    const input: MatchInput = {
      id,
      platformShard: slot.platform,
      regionShard: slot.region,
      createdAt: isoSeconds(slot.createdAt),
      duration: slot.duration,
      gameMode: slot.gameMode,
      mapName: slot.mapName,
      matchType: slot.matchType,
      isCustomMatch: slot.kind === 'custom',
      seasonState: 'progress',
      titleId: 'bluehole-pubg',
      ...(slot.tournamentId ? { tournamentId: slot.tournamentId } : {}),
      telemetryAssetId: timeUuid(assetCreatedAt, random),
      telemetryCreatedAt: isoSeconds(assetCreatedAt),
      rosters: rostersOf(battle, stats),
    };
    let telemetry: T | null = null;
    if (options.telemetry) {
      const season = seasonSuffix(slot.platform, slot.createdAt);
      telemetry = tell(createRandom(deriveSeed(slot.seed, 'telemetry')), {
        createdAt: slot.createdAt,
        matchId: telemetryMatchId(id, slot, season),
        map,
        battle,
        stats,
        fpp: slot.gameMode.endsWith('-fpp'),
        isCustomGame: slot.kind === 'custom',
        isEventMode: slot.matchType === 'event',
        arena,
        // Ranked, esports and tournament play run without red zones and flare guns.
        hazards:
          slot.kind !== 'ranked' &&
          slot.kind !== 'tournament' &&
          !slot.gameMode.startsWith('esports-'),
        tournament: slot.kind === 'tournament',
        profile: TELEMETRY_PROFILE[options.telemetry],
      });
    }
    yield { input, telemetry };
  }
}

/** The match's rosters with their participants' stats. */
function rostersOf(battle: Battle, stats: readonly ParticipantStatsInput[]): RosterInput[] {
  const rosters: RosterInput[] = [];
  for (const roster of battle.rosters) {
    const participants: ParticipantInput[] = [];
    for (const i of roster.members)
      participants.push({
        playerId: battle.fighters[i]!.playerId,
        name: battle.fighters[i]!.name,
        stats: stats[i]!,
      });
    rosters.push({
      teamId: roster.teamId,
      rank: roster.rank,
      won: roster.rank === 1,
      participants,
    });
  }
  return rosters;
}

/** `2026-11-20T18:02:11Z`: API timestamps carry no fraction. */
export function isoSeconds(at: number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * `match.bro.official.<season>.<platform>.<mode>.<region>.<yyyy.mm.dd.hh>.<id>`, as
 * LogMatchDefinition names a match.
 */
function telemetryMatchId(id: string, slot: MatchSlot, season: string): string {
  const region =
    slot.region === 'pc-a' ? 'kr' : slot.region.replace(/^(pc|console-a|console-b)-/, '');
  const hour = new Date(slot.createdAt).toISOString().slice(0, 13).replace(/[-T]/g, '.');
  return `match.bro.official.${season}.${slot.platform}.${slot.gameMode}.${region}.${hour}.${id}`;
}
