/**
 * Which matches are ranked play and which seasons have ranked stats.
 *
 * Ranked play began with season 7 of the platform-shard era: `pc-2018-07` on the PC platforms
 * (pc-a, pc-b) and `console-07` on the console platforms (REFERENCE §3.7, ENUMS §6). Earlier
 * seasons, the 2017/2018 region-era ids (`division.bro.official.2018-07` is *not* ranked) and
 * tournament play have none. A ranked match is `matchType: "competitive"`, not custom, in one of
 * the ranked modes — squad or squad-fpp, the keys `rankedGameModeStats` is seen with. A
 * competitive match of another mode still counts toward season stats, but not toward ranked.
 */
import type { StandardGameMode } from './game-modes.ts';

/** Modes that have ranked stats, in the byte-wise order `rankedGameModeStats` lists them. */
export const RANKED_GAME_MODES = ['squad', 'squad-fpp'] as const satisfies StandardGameMode[];
export type RankedGameMode = (typeof RANKED_GAME_MODES)[number];

/** The match type of ranked matches. */
export const RANKED_MATCH_TYPE = 'competitive';

/** The first season number with ranked play, on PC and on console alike. */
export const FIRST_RANKED_SEASON_NUMBER = 7;

const RANKED_SEASON = /^division\.bro\.official\.(pc-2018|console)-(\d{2,})$/;

export function isRankedGameMode(gameMode: string): gameMode is RankedGameMode {
  return (RANKED_GAME_MODES as readonly string[]).includes(gameMode);
}

/**
 * True when `seasonId` is a season of `platform` with ranked play: `pc-2018-NN` on pc-a/pc-b
 * and `console-NN` on console-a/console-b, NN ≥ 7.
 */
export function isRankedSeason(platform: string, seasonId: string): boolean {
  const match = RANKED_SEASON.exec(seasonId);
  if (match === null || Number(match[2]) < FIRST_RANKED_SEASON_NUMBER) return false;
  return match[1] === 'pc-2018'
    ? platform === 'pc-a' || platform === 'pc-b'
    : platform === 'console-a' || platform === 'console-b';
}

/** Whether a match is ranked play (its players' seasons are checked separately). */
export function isRankedMatch(match: {
  matchType: string;
  isCustomMatch: boolean;
  gameMode: string;
}): boolean {
  return (
    match.matchType === RANKED_MATCH_TYPE &&
    !match.isCustomMatch &&
    isRankedGameMode(match.gameMode)
  );
}
