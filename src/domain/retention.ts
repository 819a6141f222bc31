/**
 * Retention: match data is served and kept for RETENTION_DAYS; 0 keeps it forever.
 */
import { DAY_MS } from './time.ts';

/** The oldest createdAt still within the window at `now` (epoch ms); -Infinity when retention is off. */
export function retentionCutoff(retentionDays: number, now: number): number {
  return retentionDays === 0 ? -Infinity : now - retentionDays * DAY_MS;
}

/** True when data created at `createdAt` has left the window at `now`. */
export function isExpired(createdAt: number, retentionDays: number, now: number): boolean {
  return createdAt < retentionCutoff(retentionDays, now);
}
