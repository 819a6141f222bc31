/**
 * Writes that wait for SQLite's write lock without stopping the thread that asks.
 *
 * better-sqlite3 is synchronous: a write meeting the lock held by another connection — the job
 * thread's, another process's — sleeps in SQLite's busy handler (`busy_timeout`), and the
 * thread, with its event loop, sleeps with it. The handler sleeps in growing steps (up to
 * 100 ms) and a job that commits batch after batch takes the lock again within microseconds,
 * so such a write waits for the job's whole write phase: measured, a 1-statement write of the
 * serving thread waited 110–610 ms while a purge of ~110 matches ran in the job thread.
 *
 * Here the write runs with `busy_timeout = 0` on the connection held for it, and SQLITE_BUSY
 * is waited out with timers, so the event loop serves meanwhile.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db, Store } from '../store.ts';

/**
 * How long a write waits for the lock before SQLITE_BUSY, ms: every connection's
 * `busy_timeout` (src/store/sqlite/dialect.ts), and the limit of the waits here. Declared here
 * so that importing this module never loads the SQLite driver (a PostgreSQL store runs without it).
 */
export const BUSY_TIMEOUT_MS = 5_000;

/** First wait after SQLITE_BUSY, ms; doubled up to LONGEST_WAIT_MS. */
const FIRST_WAIT_MS = 1;
const LONGEST_WAIT_MS = 16;

/** True for SQLite's "the database is locked" (SQLITE_BUSY and its extended codes). */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs `write` — one or more statements committing on their own, never a transaction already
 * open — so that on SQLite a lock held elsewhere is waited for without blocking the thread, for
 * as long as `busy_timeout` would have waited (then the SQLITE_BUSY is thrown, as before). On
 * PostgreSQL, whose driver never blocks the thread, it simply runs `write`.
 *
 * After SQLITE_BUSY, `write` runs again from its start: each of its statements must be safe to
 * repeat (an upsert, a conditional update, a delete), since those before the one that found
 * the lock have committed.
 */
export async function writeWithoutBlocking<T>(
  store: Pick<Store, 'db' | 'dialect'>,
  write: (db: Db) => Promise<T>,
): Promise<T> {
  if (store.dialect !== 'sqlite') return write(store.db);
  const giveUpAt = performance.now() + BUSY_TIMEOUT_MS;
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
    try {
      return await withoutBusyHandler(store.db, write);
    } catch (error) {
      if (!isSqliteBusy(error) || performance.now() >= giveUpAt) throw error;
    }
    await sleep(wait);
  }
}

/**
 * Lets the event loop run between the statements of a long write on SQLite. better-sqlite3 runs
 * each statement synchronously and Kysely's awaits between them settle as microtasks, so a
 * transaction of many statements holds its thread for all of them — 20–50 ms for a match of a
 * hundred players, during which nothing the serving thread was asked meanwhile is answered, not
 * even from a cache. On PostgreSQL every statement already waits on its socket: nothing to do.
 */
export function yieldBetweenStatements(dialect: string): Promise<void> | undefined {
  return dialect === 'sqlite' ? new Promise((resolve) => setImmediate(resolve)) : undefined;
}

/**
 * Runs `body` in one transaction that, on SQLite, waits for a write lock held elsewhere without
 * blocking the thread (see writeWithoutBlocking). A transaction that meets the lock is rolled
 * back whole, so running it again from its start is always safe; its body must only have no
 * effects outside the store that cannot be repeated.
 */
export function transactWithoutBlocking<T>(
  store: Pick<Store, 'db' | 'dialect'>,
  body: (trx: Db) => Promise<T>,
): Promise<T> {
  return writeWithoutBlocking(store, (db) => db.transaction().execute(body));
}

/**
 * `write` on the store's one connection, held meanwhile (no other query of this thread runs
 * with the handler off), with the busy handler off; restored whatever happens.
 */
function withoutBusyHandler<T>(db: Db, write: (db: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`pragma busy_timeout = 0`.execute(connection);
    try {
      return await write(connection);
    } finally {
      await sql.raw(`pragma busy_timeout = ${BUSY_TIMEOUT_MS}`).execute(connection);
    }
  });
}
