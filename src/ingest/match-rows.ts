/**
 * What a validated match writes: its document record (rosters and participants in order, stats
 * rendered) and its rows, with the season stats increments of its human participants.
 */
import { LIFETIME } from '../domain/seasons.ts';
import { REGION_PLATFORM, regionsOf, type Platform } from '../domain/shards.ts';
import {
  countsTowardLifetime,
  countsTowardSeasonStats,
  isBot,
  seasonStatsIncrement,
} from '../domain/stats.ts';
import { renderParticipantStats, type MatchRecord } from '../presenters/match-document.ts';
import type { IngestedMatchRows, SeasonStatsAddition } from '../store/ingest-writes.ts';
import type { MatchMasteryRows } from '../store/mastery-writes.ts';
import { RECORDED_DOCUMENT } from '../store/match-documents.ts';
import type { MatchDocumentsTable } from '../store/schema.ts';
import type { ValidMatch } from './validate-match.ts';
import { rankedAdditions } from './ranked-results.ts';

export const DEFAULT_TITLE_ID = 'bluehole-pubg';
/** seasonState when the input leaves it out: a match is played while its season is in progress. */
export const DEFAULT_SEASON_STATE = 'progress';

/** The match as its document shows it; `hasTelemetry` when its telemetry file is stored. */
export function matchRecord(match: ValidMatch, hasTelemetry: boolean): MatchRecord {
  const m = match.input;
  // Loops rather than callbacks made for each match: V8 keeps a closure's optimized code only
  // while a closure made from it is alive, so those were compiled again after every full
  // collection (about one every 5 matches ingested).
  const rosters: MatchRecord['rosters'] = [];
  for (let r = 0; r < m.rosters.length; r++) {
    const roster = m.rosters[r]!;
    rosters.push({
      id: match.rosterIds[r]!,
      teamId: roster.teamId,
      rank: roster.rank,
      won: roster.won,
      participantIds: [],
    });
  }
  const participants: MatchRecord['participants'] = [];
  for (const p of match.participants) {
    rosters[p.rosterIndex]!.participantIds.push(p.id);
    participants.push({
      id: p.id,
      platform: p.platform,
      statsJson: renderParticipantStats(p.input.name, p.input.playerId, p.input.stats),
    });
  }
  return {
    id: m.id,
    platform: m.platformShard,
    createdAt: match.createdAt,
    duration: m.duration,
    gameMode: m.gameMode,
    mapName: m.mapName,
    matchType: m.matchType,
    isCustomMatch: m.isCustomMatch,
    seasonState: m.seasonState ?? DEFAULT_SEASON_STATE,
    titleId: m.titleId ?? DEFAULT_TITLE_ID,
    assetId: match.assetId,
    assetCreatedAt: match.assetCreatedAt,
    hasTelemetry,
    rosters,
    participants,
  };
}

/**
 * The rows of a match. `seasons` maps each platform of the match to its season; only humans
 * get player rows, match lists and stats, and only counted matches add to season stats (and to
 * lifetime stats for seasons of the lifetime era).
 */
export function ingestRows(
  match: ValidMatch,
  record: MatchRecord,
  seasons: ReadonlyMap<Platform, string>,
  extra: {
    telemetryKey: string | null;
    /** What the match adds to mastery (deriveMatch). */
    mastery: MatchMasteryRows;
    documents: MatchDocumentsTable[];
    now: number;
  },
): IngestedMatchRows {
  const { telemetryKey, documents, now } = extra;
  const membersInDocument = !documents.some((d) => d.variant === RECORDED_DOCUMENT);
  const m = match.input;
  const isCustom = m.isCustomMatch ? 1 : 0;
  const counted = countsTowardSeasonStats(m);
  const humans: ValidMatch['participants'] = [];
  for (const p of match.participants) if (!isBot(p.input.playerId)) humans.push(p);
  const seasonStats: SeasonStatsAddition[] = [];
  if (counted) {
    for (const p of humans) {
      const seasonId = seasons.get(p.platform)!;
      const won = m.rosters[p.rosterIndex]!.won;
      const increment = seasonStatsIncrement(p.input.stats, won, match.createdAt);
      const base = {
        platform: p.platform,
        accountId: p.input.playerId,
        gameMode: m.gameMode,
        increment,
      };
      seasonStats.push({ ...base, seasonId });
      if (countsTowardLifetime(seasonId)) seasonStats.push({ ...base, seasonId: LIFETIME });
    }
  }
  return {
    match: {
      id: m.id,
      platform: m.platformShard,
      region: m.regionShard,
      created_at: match.createdAt,
      duration: m.duration,
      game_mode: m.gameMode,
      map_name: m.mapName,
      match_type: m.matchType,
      is_custom: isCustom,
      season_state: record.seasonState,
      season_id: seasons.get(m.platformShard)!,
      title_id: record.titleId,
      tournament_id: m.tournamentId ?? null,
      asset_id: match.assetId,
      asset_created_at: match.assetCreatedAt,
      telemetry_key: telemetryKey,
      ingested_at: now,
    },
    // A recorded match's rows keep its members (its documents are its bytes); a match whose
    // documents are rendered here keeps them in those documents only (findMatchMembers).
    rosters: membersInDocument
      ? []
      : m.rosters.map((roster, r) => ({
          match_id: m.id,
          id: match.rosterIds[r]!,
          team_id: roster.teamId,
          rank: roster.rank,
          won: roster.won ? 1 : 0,
          position: r,
        })),
    participants: membersInDocument
      ? []
      : match.participants.map((p, position) => ({
          match_id: m.id,
          id: p.id,
          roster_id: match.rosterIds[p.rosterIndex]!,
          player_id: p.input.playerId,
          shard: p.platform,
          stats: record.participants[position]!.statsJson,
          position,
        })),
    players: humans.map((p) => ({
      platform: p.platform,
      accountId: p.input.playerId,
      name: p.input.name,
      region: playerRegion(p.platform, m.regionShard),
      seenAt: match.createdAt,
    })),
    playerMatches: humans.map((p) => ({
      platform: p.platform,
      account_id: p.input.playerId,
      match_id: m.id,
      created_at: match.createdAt,
      game_mode: m.gameMode,
      season_id: seasons.get(p.platform)!,
      is_custom: isCustom,
    })),
    seasonStats,
    ranked: rankedAdditions(match, seasons),
    tournament: m.tournamentId ? { id: m.tournamentId, createdAt: match.createdAt } : null,
    documents,
    mastery: extra.mastery,
    now,
  };
}

/**
 * The region a player is placed in: the match's, or for a cross-play participant its
 * counterpart on the player's own platform (console-a-eu → console-b-eu), when there is one.
 */
function playerRegion(platform: Platform, matchRegion: string): string {
  if (REGION_PLATFORM[matchRegion] === platform) return matchRegion;
  const suffix = matchRegion.slice(matchRegion.lastIndexOf('-'));
  return regionsOf(platform).find((region) => region.endsWith(suffix)) ?? matchRegion;
}
