/**
 * Calendar arithmetic on epoch milliseconds, always in UTC: the day and week numbers behind the
 * `days`, daily and weekly season stats, and the timestamp format of API bodies.
 */

export const DAY_MS = 86_400_000;

/** UTC day number: whole days since 1970-01-01 (that day is 0). */
export function dayNumber(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/**
 * Week number of Monday-based UTC weeks: the week holding 1970-01-01 (a Thursday) is 0 and every
 * week starts on a Monday, so the 5th of January 1970 opens week 1.
 */
export function weekNumber(ms: number): number {
  return Math.floor((dayNumber(ms) + 3) / 7);
}

/** `YYYY-MM-DDTHH:MM:SSZ`: the API's timestamp format (UTC, no fraction; the fraction is cut). */
export function isoSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** The UTC calendar parts of an instant, zero-padded: for dated paths of telemetry files. */
export function utcParts(ms: number): {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
} {
  const date = new Date(ms);
  return {
    year: String(date.getUTCFullYear()).padStart(4, '0'),
    month: pad2(date.getUTCMonth() + 1),
    day: pad2(date.getUTCDate()),
    hour: pad2(date.getUTCHours()),
    minute: pad2(date.getUTCMinutes()),
  };
}
