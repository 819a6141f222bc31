/**
 * A season that began inside the demo's window still gets a full population: official pc-b
 * matches of each standard mode move into it until every pc-b player can play each mode there
 * (the current season's leaderboards need them).
 */
import { STANDARD_GAME_MODES } from '../domain/game-modes.ts';
import { REGION_UTC_OFFSET } from './players.ts';
import type { Random } from './random.ts';
import { NEWEST_MATCH_END_AGE_MS, sampleTime, type MatchSlot } from './schedule.ts';

/** Enough pc-b matches per mode inside the current season that its whole population plays it. */
const SEASON_SLOTS_PER_PLAYER = 1.35;
const HUMANS_PER_MATCH = 84;

/**
 * When the current pc-b season began inside the window, moves official pc-b matches of each
 * standard mode into it until the season holds enough of them for every player to play each
 * mode (the leaderboards of the current season need a full population).
 */
export function biasTowardSeason(
  random: Random,
  slots: MatchSlot[],
  seasonStart: number,
  now: number,
  pcbPlayers: number,
): void {
  const wanted = Math.ceil((SEASON_SLOTS_PER_PLAYER * pcbPlayers) / HUMANS_PER_MATCH);
  for (const mode of STANDARD_GAME_MODES) {
    const candidates = slots.filter(
      (s) => s.platform === 'pc-b' && s.kind === 'official' && s.gameMode === mode,
    );
    let inSeason = candidates.filter((s) => s.createdAt >= seasonStart).length;
    for (const slot of candidates) {
      if (inSeason >= wanted) break;
      const latest = now - NEWEST_MATCH_END_AGE_MS - slot.duration * 1000;
      if (slot.createdAt >= seasonStart || latest < seasonStart) continue;
      slot.createdAt = sampleTime(random, seasonStart, latest, REGION_UTC_OFFSET[slot.region] ?? 0);
      inSeason++;
    }
  }
}
