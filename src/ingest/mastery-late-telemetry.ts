/**
 * Telemetry that reaches a match after the match was stored adds the telemetry part of its
 * mastery (weapons, medals, the telemetry survival values and their XP) exactly once: the match's
 * pending mark, set when it was ingested without telemetry, is taken in the same transaction.
 */
import { isBot } from '../domain/stats.ts';
import type { SurvivalParticipantStats } from '../domain/survival-mastery.ts';
import { findMasteryMatch, type StoredMasteryMatch } from '../store/mastery-reads.ts';
import { takePendingTelemetry, writeTelemetryMastery } from '../store/mastery-writes.ts';
import type { Db, Store } from '../store/store.ts';
import { telemetryMasteryRows, type MasteryMatch } from './mastery-rows.ts';

/**
 * Adds the telemetry part of a stored match's mastery. Call it inside the transaction that
 * attaches the telemetry (`db` is that transaction). Returns false, changing nothing, when the
 * part was added already (or the match never counted, or is gone).
 */
export async function addLateTelemetryMastery(
  db: Db,
  store: Store,
  matchId: string,
  events: readonly unknown[],
): Promise<boolean> {
  if (!(await takePendingTelemetry(db, matchId))) return false;
  const stored = await findMasteryMatch(db, matchId);
  if (stored === null) return false;
  await writeTelemetryMastery(db, store, telemetryMasteryRows(storedMasteryMatch(stored), events));
  return true;
}

/** The mastery facts of a stored match. */
function storedMasteryMatch(stored: StoredMasteryMatch): MasteryMatch {
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
