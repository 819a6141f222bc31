/**
 * Telemetry that reaches a match after the match was stored adds the telemetry part of its
 * mastery (weapons, medals, the telemetry survival values and their XP) exactly once: the match's
 * pending mark, set when it was ingested without telemetry, is taken in the same transaction.
 */
import { findMasteryMatch } from '../store/mastery-reads.ts';
import { takePendingTelemetry, writeTelemetryMastery } from '../store/mastery-writes.ts';
import type { Db, Store } from '../store/store.ts';
import { playerTag } from '../store/document-changes.ts';
import { storedMasteryMatch } from './mastery-match.ts';
import { telemetryMasteryRows } from './mastery-rows.ts';

/**
 * Adds the telemetry part of a stored match's mastery. Call it inside the transaction that
 * attaches the telemetry (`db` is that transaction). Returns the document tags of the players
 * whose mastery it changed: none when the part was added already (or the match never counted,
 * or is gone).
 */
export async function addLateTelemetryMastery(
  db: Db,
  store: Store,
  matchId: string,
  events: readonly unknown[],
): Promise<string[]> {
  if (!(await takePendingTelemetry(db, matchId))) return [];
  const stored = await findMasteryMatch(db, matchId);
  if (stored === null) return [];
  const match = storedMasteryMatch(stored);
  await writeTelemetryMastery(db, store, telemetryMasteryRows(match, events));
  return match.players.map((player) => playerTag(player.platform, player.accountId));
}
