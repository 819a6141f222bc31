/**
 * What differs between the two databases, as one interface each dialect's module implements
 * (src/store/sqlite/, src/store/postgres/). A module of its own so the adapters need not import
 * the store that imports them.
 */
import type { Dialect, Expression, Kysely, RawBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** What differs between the two databases; nothing dialect-specific lives outside these adapters. */
export interface DialectAdapter {
  name: DialectName;
  dialect: Dialect;
  blobType: 'blob' | 'bytea';
  /** The larger of two values (`max(a, b)` on SQLite, `greatest(a, b)` on PostgreSQL). */
  greatest<T>(a: Expression<T>, b: Expression<T>): RawBuilder<T>;
  /**
   * A text value compared byte by byte (code point order, as JS `<` on ASCII ids) whatever the
   * database's collation: in ORDER BY, for tie-breaks that must match the JS rule.
   */
  bytewise(value: Expression<string>): RawBuilder<string>;
  /** The connection pool's state now; absent where there is no pool (SQLite: one connection). */
  poolStats?(): PoolStats;
  /**
   * After a bulk load, what autovacuum would do some time later (VACUUM ANALYZE of `tables`):
   * the visibility map that lets index-only scans skip the table, and the planner's
   * statistics. Absent on SQLite (nothing of the kind is needed for its plans).
   */
  settleTables?<DB>(db: Kysely<DB>, tables: readonly string[]): Promise<void>;
  /**
   * Runs `work` on one connection of the pool whose statements the server runs in one process
   * each, without parallel workers or JIT compilation: for a job reading in many short
   * statements, where starting workers or compiling for each costs more than it saves (and
   * workers take cores from the job's other connections). Absent on SQLite (one connection,
   * neither feature).
   */
  withSerialConnection?<DB, T>(db: Kysely<DB>, work: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  /**
   * A dialect of its own for the migrator, which closes it when done: on PostgreSQL, without the
   * statement timeout that bounds the store's connections; on SQLite, a connection whose small
   * page cache a migration rewriting a large table leaves behind, instead of filling the
   * store's. Absent where migrations run on the store's own connection (an in-memory SQLite
   * database, which no other connection can open).
   */
  migrationDialect?(): Dialect;
  /**
   * Checkpoints the write-ahead log from a thread of its own, so that no commit of the caller's
   * thread copies it into the database file (src/store/sqlite/checkpoints.ts); returns how to
   * stop. What a serving process calls, with the thread's niceness (0–19; 0 or none: the
   * caller's) and, for tests, how often it checkpoints (ms). Absent on PostgreSQL (the server
   * does its own) and for an in-memory SQLite database (no other connection can open it).
   */
  checkpointInBackground?(options?: { nice?: number; intervalMs?: number }): () => Promise<void>;
}

/** Connections of a pool at one instant, for metrics. */
export interface PoolStats {
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}
