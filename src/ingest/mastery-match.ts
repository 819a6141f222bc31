/**
 * The facts of a match that mastery needs, from a validated ingest input or from the store (for
 * telemetry that arrives after its match).
 */
import { isBot } from '../domain/stats.ts';
import type { SurvivalParticipantStats } from '../domain/survival-mastery.ts';
import type { StoredMasteryMatch } from '../store/mastery-reads.ts';
import type { ValidMatch } from './validate-match.ts';

/** A human participant as mastery sees them. */
export interface MasteryPlayer {
  accountId: string;
  platform: string;
  teamId: number;
  rank: number;
  stats: SurvivalParticipantStats;
}

/** The facts of a match mastery needs, from an ingest input or from the store. */
export interface MasteryMatch {
  id: string;
  /** Epoch ms. */
  createdAt: number;
  matchType: string;
  isCustomMatch: boolean;
  players: readonly MasteryPlayer[];
  /** Members per roster team id, bots included (for the Annihilation medal). */
  teamSizes: ReadonlyMap<number, number>;
}

/** The mastery facts of a validated ingest input. */
export function masteryMatchOf(match: ValidMatch): MasteryMatch {
  const m = match.input;
  const teamSizes = new Map<number, number>();
  for (const roster of m.rosters)
    teamSizes.set(roster.teamId, (teamSizes.get(roster.teamId) ?? 0) + roster.participants.length);
  // A loop, not callbacks made per match (V8 drops their optimized code at full collections).
  const players: MasteryPlayer[] = [];
  for (const p of match.participants) {
    if (isBot(p.input.playerId)) continue;
    const roster = m.rosters[p.rosterIndex]!;
    players.push({
      accountId: p.input.playerId,
      platform: p.platform,
      teamId: roster.teamId,
      rank: roster.rank,
      stats: p.input.stats,
    });
  }
  return {
    id: m.id,
    createdAt: match.createdAt,
    matchType: m.matchType,
    isCustomMatch: m.isCustomMatch,
    players,
    teamSizes,
  };
}

/** The mastery facts of a stored match. */
export function storedMasteryMatch(stored: StoredMasteryMatch): MasteryMatch {
  const rosters = new Map(stored.rosters.map((roster) => [roster.id, roster]));
  const teamSizes = new Map<number, number>();
  for (const participant of stored.participants) {
    const teamId = rosters.get(participant.rosterId)?.teamId ?? -1;
    teamSizes.set(teamId, (teamSizes.get(teamId) ?? 0) + 1);
  }
  const players = stored.participants
    .filter((participant) => !isBot(participant.playerId))
    .map((participant) => {
      const roster = rosters.get(participant.rosterId);
      return {
        accountId: participant.playerId,
        platform: participant.platform,
        teamId: roster?.teamId ?? -1,
        rank: roster?.rank ?? 0,
        stats: JSON.parse(participant.stats) as SurvivalParticipantStats,
      };
    });
  return {
    id: stored.id,
    createdAt: stored.createdAt,
    matchType: stored.matchType,
    isCustomMatch: stored.isCustom,
    players,
    teamSizes,
  };
}
