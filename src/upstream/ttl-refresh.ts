/**
 * The time-to-live bookkeeping every read-through shares (players, stats, mastery, clans): when
 * a lookup was last fetched is a row of mirror_cursors, so every instance knows, and a lookup
 * within its TTL costs no upstream budget at all. A lookup the upstream answered 404 is kept as
 * `missing:<time>` just as long (the 404 is trusted for the TTL); such rows are deleted later by
 * `deleteCursorsBefore`, so lookups of things that never existed do not pile up.
 */
import type { Clock } from '../clock.ts';
import type { ApiError } from '../http/jsonapi.ts';
import { readCursor, writeCursor } from '../store/mirror-state.ts';
import type { Store } from '../store/store.ts';
import type { SingleFlight } from './single-flight.ts';
import { upstreamApiError } from './upstream-errors.ts';

/** How a lookup stands after a refresh was tried. */
export type Freshness =
  | { state: 'fresh' }
  /** The upstream knows none of it. */
  | { state: 'missing' }
  /** The upstream could not be asked: serve what is held, `ageMs` old (null: never fetched). */
  | { state: 'stale'; ageMs: number | null; error: ApiError };

/** Value prefix of a cursor whose lookup the upstream answered 404. */
export const MISSING = 'missing:';

/**
 * Runs `fetch` (once however many callers ask meanwhile) unless the cursor says the lookup was
 * fetched less than `ttlMs` ago, and records when it ran. `fetch` says whether the upstream had
 * it; an upstream outage or spent budget becomes a `stale` answer carrying the error to give
 * when the store holds nothing. Other errors are thrown.
 */
export async function refreshWithinTtl(
  deps: { store: Store; clock: Clock },
  flights: SingleFlight<Freshness>,
  cursor: string,
  ttlMs: number,
  fetch: () => Promise<'fresh' | 'missing'>,
): Promise<Freshness> {
  const fetchedAt = await readCursor(deps.store.db, cursor);
  const now = deps.clock.now();
  const age = fetchedAt === null ? null : now - Number(fetchedAt.replace(MISSING, ''));
  if (age !== null && age < ttlMs) return { state: 'fresh' };
  return flights.run(cursor, async () => {
    try {
      const state = await fetch();
      const value = state === 'missing' ? `${MISSING}${now}` : String(now);
      await writeCursor(deps.store.db, cursor, value, now);
      return { state };
    } catch (error) {
      const answer = upstreamApiError(error);
      if (answer === null) throw error;
      return { state: 'stale', ageMs: age, error: answer };
    }
  });
}
