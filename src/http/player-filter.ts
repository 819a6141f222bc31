/**
 * The `filter[playerNames]` / `filter[playerIds]` query parameters of player searches and batch
 * stats: comma-separated, at most ten values (REFERENCE §3.2), names and ids never combined.
 */
import { Type } from '@sinclair/typebox';
import { badRequest } from './jsonapi.ts';

/** Most values one filter may carry (the real service's limit since v11.1.0). */
export const MAX_FILTER_VALUES = 10;

export const PLAYER_NAMES = 'filter[playerNames]';
export const PLAYER_IDS = 'filter[playerIds]';

/** Query schema of the player filters; other parameters (paging, sorting) are ignored. */
export const PlayerFilterQuery = Type.Object({
  [PLAYER_NAMES]: Type.Optional(
    Type.String({
      description: `Player names, case-sensitive, comma-separated: at most ${MAX_FILTER_VALUES}. Not with ${PLAYER_IDS}.`,
      examples: ['SlyFox_42,Quietus'],
    }),
  ),
  [PLAYER_IDS]: Type.Optional(
    Type.String({
      description: `Account ids, comma-separated: at most ${MAX_FILTER_VALUES}. Not with ${PLAYER_NAMES}.`,
      examples: ['account.3f6c0a7b2d9e4f1a8c5b6d7e8f9a0b1c'],
    }),
  ),
});

export type PlayerFilter = { by: 'names' | 'ids'; values: string[] };

/**
 * The values of a comma-separated filter, duplicates dropped, in the order given. Throws a 400
 * for an empty filter or one over the limit.
 */
export function filterValues(parameter: string, raw: string): string[] {
  const values = raw.split(',').filter((value) => value !== '');
  if (values.length === 0) throw badRequest(`${parameter} names no players`);
  if (values.length > MAX_FILTER_VALUES) {
    throw badRequest(
      `${parameter} takes at most ${MAX_FILTER_VALUES} values; ${values.length} were given`,
    );
  }
  return [...new Set(values)];
}

/** The one player filter of a search; a 400 when neither or both are given. */
export function playerFilter(query: {
  [PLAYER_NAMES]?: string;
  [PLAYER_IDS]?: string;
}): PlayerFilter {
  const names = query[PLAYER_NAMES];
  const ids = query[PLAYER_IDS];
  if (names !== undefined && ids !== undefined) {
    throw badRequest(`${PLAYER_NAMES} and ${PLAYER_IDS} cannot be used together`);
  }
  if (names !== undefined) return { by: 'names', values: filterValues(PLAYER_NAMES, names) };
  if (ids !== undefined) return { by: 'ids', values: filterValues(PLAYER_IDS, ids) };
  throw badRequest(`Give exactly one of ${PLAYER_NAMES} or ${PLAYER_IDS}`);
}

/** The account ids of a batch stats request, which takes `filter[playerIds]` only (a 400 otherwise). */
export function playerIdsFilter(query: {
  [PLAYER_NAMES]?: string;
  [PLAYER_IDS]?: string;
}): string[] {
  const ids = query[PLAYER_IDS];
  if (ids === undefined || query[PLAYER_NAMES] !== undefined) {
    throw badRequest(`Batch stats take ${PLAYER_IDS} (and no ${PLAYER_NAMES})`);
  }
  return filterValues(PLAYER_IDS, ids);
}
