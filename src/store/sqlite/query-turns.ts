/**
 * Turns of the event loop shared between SQLite's queries and everything else a thread does.
 *
 * better-sqlite3 runs each query synchronously and Kysely's awaits around it settle as
 * microtasks, so requests that each run several queries — documents rendered again after a
 * purge dropped them, a hundred at once — run back to back within one turn, and a request for a
 * cached document that arrived meanwhile waits for all of them: 30–190 ms at p99 on the bench
 * while `retention` ran a day early (README, "Why jobs stalled"). Here a turn runs queries (and
 * whatever its callers do between them) until TURN_MS have passed since its first; a query that
 * finds the turn's share spent waits for a later turn (`setImmediate`, after the poll for new
 * requests). A query alone runs at once, and a burst of them is cut into turns that cached
 * answers get between.
 */

/** ms one turn of the event loop runs queries for before the next query waits for the next turn. */
export const TURN_MS = 1;

/** When this turn's first query began (performance.now()), or -1 before it. */
let turnStartedAt = -1;

function endTurn(): void {
  turnStartedAt = -1;
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * To be awaited, when it returns a promise, before a query runs: settles in a later turn when
 * this turn's share is spent, else returns nothing (the query runs at once).
 */
export function turnForQuery(): Promise<void> | undefined {
  if (turnStartedAt < 0) {
    turnStartedAt = performance.now();
    // Runs in this turn's check phase, before the queries deferred to it resume.
    setImmediate(endTurn);
    return undefined;
  }
  if (performance.now() - turnStartedAt < TURN_MS) return undefined;
  return waitForTurn();
}

async function waitForTurn(): Promise<void> {
  do await nextTurn();
  while (turnForQuery() !== undefined);
}
