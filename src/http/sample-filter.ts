/**
 * The `filter[createdAt-start]` query parameter of the samples endpoint: an ISO 8601 UTC time
 * (REFERENCE §3.13, e.g. `2018-01-01T00:00:00Z`) naming the sample whose window holds it. Other
 * filters are ignored, not refused: pubg.js sends `filter[createdAt]`.
 */
import { Type } from '@sinclair/typebox';
import { retentionCutoff } from '../domain/retention.ts';
import { isoSeconds } from '../domain/time.ts';
import { badRequest } from './jsonapi.ts';

export const CREATED_AT_START = 'filter[createdAt-start]';

export const SampleQuery = Type.Object({
  [CREATED_AT_START]: Type.Optional(
    Type.String({
      description:
        'A time (ISO 8601, UTC: `Z` or `+00:00`; fraction optional): the sample of the UTC ' +
        'day holding it. Not in the future, nor older than the retention window.',
      examples: ['2026-11-19T00:00:00Z'],
    }),
  ),
});

const EXPECTED_FORMAT =
  'an ISO 8601 UTC time YYYY-MM-DDTHH:MM:SSZ, milliseconds optional (2026-01-31T00:00:00Z)';

// UTC only, written `Z` or as the zero offset `+00:00`: .NET's round-trip format ("o") of a
// local time on a UTC machine ends in `+00:00` (pubg-dotnet sends it percent-encoded). Other
// offsets are refused as not UTC; an offset's `+` arrives as a space unless percent-encoded.
const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|\+00:00)$/;

/**
 * Epoch ms of `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (or `+00:00`), the fraction cut to
 * milliseconds; null for anything else, calendar-impossible values (month 13, 31 April, hour
 * 24) included.
 */
export function parseUtcTime(value: string): number | null {
  const match = ISO_UTC.exec(value);
  if (match === null) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const millis = Number((match[7] ?? '').slice(0, 3).padEnd(3, '0'));
  const time = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const date = new Date(time);
  const exact =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return exact ? time : null;
}

/**
 * The time a samples request asks for (epoch ms), or null without the filter. A 400 names the
 * expected format when the value is not one, the earliest time served when it is older than
 * the retention window, and says so when it lies in the future.
 */
export function sampleTimeFilter(
  raw: string | undefined,
  options: { now: number; retentionDays: number },
): number | null {
  if (raw === undefined) return null;
  const at = parseUtcTime(raw);
  if (at === null) throw badRequest(`${CREATED_AT_START} must be ${EXPECTED_FORMAT}; got '${raw}'`);
  const cutoff = retentionCutoff(options.retentionDays, options.now);
  if (at < cutoff) {
    throw badRequest(
      `${CREATED_AT_START} reaches back ${options.retentionDays} days at most: ` +
        `the earliest time served is ${isoSeconds(Math.ceil(cutoff / 1000) * 1000)}; got '${raw}'`,
    );
  }
  if (at > options.now) {
    throw badRequest(
      `${CREATED_AT_START} '${raw}' is in the future; a sample is published when its window has closed`,
    );
  }
  return at;
}
