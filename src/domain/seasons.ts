/**
 * Seasons: the per-platform catalogue of season ids with their start dates, the id formats, the
 * shard rules of the season stats endpoint, and resolving which season a match belongs to.
 *
 * A season lasts from its start to the next season's start, so every instant after the first
 * season belongs to exactly one season and exactly one season is current.
 */
import type { Platform } from './shards.ts';

export const SEASON_ID_PREFIX = 'division.bro.official.';
export const LIFETIME = 'lifetime';
/** The first season counted by lifetime stats (the first season of the platform-shard era). */
export const FIRST_LIFETIME_SEASON: Readonly<Record<string, string>> = Object.freeze({
  pc: `${SEASON_ID_PREFIX}pc-2018-01`,
  'console-a': `${SEASON_ID_PREFIX}playstation-01`,
  'console-b': `${SEASON_ID_PREFIX}xbox-01`,
});

export interface SeasonDefinition {
  /** Full id, `division.bro.official.<suffix>`. */
  id: string;
  /** Start, epoch ms (UTC); null for 2017 pre-seasons whose dates were never published. */
  startsAt: number | null;
}

const day = (iso: string): number => Date.parse(`${iso}T00:00:00Z`);
const DAY_MS = 86_400_000;

/** Official start dates of PC seasons up to pc-2018-19 (the upstream typo for 19 corrected). */
const PC_DATED: ReadonlyArray<[string, string]> = [
  ['2018-01', '2017-12-21'],
  ['2018-02', '2018-02-01'],
  ['2018-03', '2018-02-28'],
  ['2018-04', '2018-03-31'],
  ['2018-05', '2018-05-02'],
  ['2018-06', '2018-05-31'],
  ['2018-07', '2018-07-05'],
  ['2018-08', '2018-08-01'],
  ['2018-09', '2018-08-29'],
  ['pc-2018-01', '2018-10-03'],
  ['pc-2018-02', '2018-12-19'],
  ['pc-2018-03', '2019-03-28'],
  ['pc-2018-04', '2019-07-24'],
  ['pc-2018-05', '2019-10-23'],
  ['pc-2018-06', '2020-01-22'],
  ['pc-2018-07', '2020-04-21'],
  ['pc-2018-08', '2020-07-22'],
  ['pc-2018-09', '2020-10-21'],
  ['pc-2018-10', '2020-12-16'],
  ['pc-2018-11', '2021-03-31'],
  ['pc-2018-12', '2021-06-02'],
  ['pc-2018-13', '2021-08-04'],
  ['pc-2018-14', '2021-10-05'],
  ['pc-2018-15', '2021-12-01'],
  ['pc-2018-16', '2022-02-16'],
  ['pc-2018-17', '2022-04-13'],
  ['pc-2018-18', '2022-06-08'],
  ['pc-2018-19', '2022-08-10'],
];

/** Shared console seasons `console-03` … `console-14` (PlayStation and Xbox alike). */
const CONSOLE_DATED: ReadonlyArray<[string, string]> = [
  ['console-03', '2019-08-13'],
  ['console-04', '2019-10-01'],
  ['console-05', '2019-10-29'],
  ['console-06', '2020-01-30'],
  ['console-07', '2020-04-28'],
  ['console-08', '2020-07-30'],
  ['console-09', '2020-10-29'],
  ['console-10', '2020-12-17'],
  ['console-11', '2021-04-08'],
  ['console-12', '2021-06-10'],
  ['console-13', '2021-08-11'],
  ['console-14', '2021-10-14'],
];

const CONSOLE_A_EARLY: ReadonlyArray<[string, string]> = [
  ['2018-09', '2018-12-07'],
  ['playstation-01', '2019-01-22'],
  ['playstation-02', '2019-05-21'],
];

const CONSOLE_B_EARLY: ReadonlyArray<[string, string]> = [
  ['xb-pre1', '2017-12-10'],
  ['2018-05', '2018-05-23'],
  ['2018-07', '2018-07-18'],
  ['2018-08', '2018-09-04'],
  ['xbox-01', '2019-01-22'],
  ['xbox-02', '2019-05-21'],
];

/**
 * Start of PC season `pc-2018-<n>` for n > 19, whose dates were never published: seasons 20–41
 * are spread evenly (60 days) between pc-2018-19 and pc-2018-41, known to be current in April
 * 2026; from 41 on the cadence is eight weeks, as the recent seasons ran.
 */
function extrapolatedPcStart(n: number): number {
  const season19 = day('2022-08-10');
  if (n <= 41) return season19 + (n - 19) * 60 * DAY_MS;
  return season19 + 22 * 60 * DAY_MS + (n - 41) * 56 * DAY_MS;
}

/** Console seasons after console-14 start a week after the PC season with the same number. */
const CONSOLE_LAG_MS = 7 * DAY_MS;

const pad = (n: number): string => String(n).padStart(2, '0');
const define = ([suffix, start]: [string, string]): SeasonDefinition => ({
  id: SEASON_ID_PREFIX + suffix,
  startsAt: day(start),
});

/**
 * The season catalogue of a platform, oldest first, through the season current at `now` and
 * the one after it (so a match created just after a season change still resolves).
 */
export function seasonCatalogue(platform: Platform, now: number): SeasonDefinition[] {
  const seasons: SeasonDefinition[] = [];
  let next: (n: number) => number;
  let id: (n: number) => string;
  if (platform === 'console-a' || platform === 'console-b') {
    seasons.push(...(platform === 'console-a' ? CONSOLE_A_EARLY : CONSOLE_B_EARLY).map(define));
    seasons.push(...CONSOLE_DATED.map(define));
    next = (n) => (n <= 19 ? day(PC_DATED[n + 8]![1]) : extrapolatedPcStart(n)) + CONSOLE_LAG_MS;
    id = (n) => `${SEASON_ID_PREFIX}console-${pad(n)}`;
  } else {
    seasons.push({ id: `${SEASON_ID_PREFIX}2017-beta`, startsAt: null });
    for (let n = 1; n <= 9; n++)
      seasons.push({ id: `${SEASON_ID_PREFIX}2017-pre${n}`, startsAt: null });
    seasons.push(...PC_DATED.map(define));
    next = extrapolatedPcStart;
    id = (n) => `${SEASON_ID_PREFIX}pc-2018-${pad(n)}`;
  }
  let n = platform === 'console-a' || platform === 'console-b' ? 15 : 20;
  // Stop after the first season that starts in the future: it is listed as the upcoming one.
  while ((seasons.at(-1)?.startsAt ?? 0) <= now) {
    seasons.push({ id: id(n), startsAt: next(n) });
    n++;
  }
  return seasons;
}

/** The season whose span contains `at`, from a catalogue ordered oldest first; null before the first. */
export function seasonAt<T extends { startsAt: number | null }>(
  seasons: readonly T[],
  at: number,
): T | null {
  let found: T | null = null;
  for (const season of seasons) {
    if (season.startsAt !== null && season.startsAt <= at) found = season;
  }
  return found;
}

/** True for ids of the PC platform-shard era, `division.bro.official.pc-2018-NN`. */
export function isPcPlatformEraSeason(seasonId: string): boolean {
  return /^division\.bro\.official\.pc-\d{4}-\d{2}$/.test(seasonId);
}

/**
 * Which kinds of shard the season stats endpoint takes for a season (spec §4): PC seasons after
 * 2018-09 use the platform shard; seasons up to 2018-09 use the platform-region shard; non-PC
 * seasons use the platform-region shard, and the platform shard is answered too, as the real
 * service answers console clients that send it.
 */
export function seasonStatsShardRule(
  pc: boolean,
  seasonId: string,
): { platform: boolean; region: boolean } {
  if (!pc) return { platform: true, region: true };
  return isPcPlatformEraSeason(seasonId)
    ? { platform: true, region: false }
    : { platform: false, region: true };
}
