/** The six standard game modes: the keys of season stats and the leaderboard path parameter. */
export const STANDARD_GAME_MODES = [
  'solo',
  'solo-fpp',
  'duo',
  'duo-fpp',
  'squad',
  'squad-fpp',
] as const;
export type StandardGameMode = (typeof STANDARD_GAME_MODES)[number];

export function isStandardGameMode(value: string): value is StandardGameMode {
  return (STANDARD_GAME_MODES as readonly string[]).includes(value);
}

/** The relationship of a season stats record that lists a mode's matches (`matchesSquadFPP` …). */
export const MATCH_LIST_RELATIONSHIP: Readonly<Record<StandardGameMode, string>> = Object.freeze({
  solo: 'matchesSolo',
  'solo-fpp': 'matchesSoloFPP',
  duo: 'matchesDuo',
  'duo-fpp': 'matchesDuoFPP',
  squad: 'matchesSquad',
  'squad-fpp': 'matchesSquadFPP',
});

/**
 * Every `gameMode` a match may carry: the standard six, the custom families
 * (normal/war/zombie/conquest/esports × the six), lab and team deathmatch.
 */
export const MATCH_GAME_MODES: readonly string[] = Object.freeze([
  ...STANDARD_GAME_MODES,
  ...['normal', 'war', 'zombie', 'conquest', 'esports'].flatMap((family) =>
    STANDARD_GAME_MODES.map((mode) => `${family}-${mode}`),
  ),
  'lab-tpp',
  'lab-fpp',
  'tdm',
]);

/** Match types (`matchType`) of the real service, `competitive` being ranked play. */
export const MATCH_TYPES = [
  'official',
  'competitive',
  'custom',
  'event',
  'training',
  'arcade',
  'airoyale',
  'seasonal',
] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

/** Internal map names (`mapName`). */
export const MAP_NAMES = [
  'Baltic_Main',
  'Chimera_Main',
  'Desert_Main',
  'DihorOtok_Main',
  'Erangel_Main',
  'Heaven_Main',
  'Kiki_Main',
  'Neon_Main',
  'Range_Main',
  'Savage_Main',
  'Summerland_Main',
  'Tiger_Main',
] as const;

export const SEASON_STATES = ['closed', 'prepare', 'progress'] as const;
export const DEATH_TYPES = ['alive', 'byplayer', 'byzone', 'suicide', 'logout'] as const;
