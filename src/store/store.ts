/**
 * The store: a Kysely instance over SQLite (default) or PostgreSQL, migrated to the latest
 * schema when opened. Query functions elsewhere in `src/store/` take the store (or a
 * transaction's `db`) as their first argument. Failures that mean "the database is not there
 * right now" are recognised by `isStoreUnavailable` (src/store/store-errors.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely, Migrator } from 'kysely';
import type { DialectAdapter, DialectName, PoolStats } from './dialect-adapter.ts';
import type { Database } from './schema.ts';
import { migrationProvider } from './migrations/index.ts';
import {
  SILENT_STORE_LOG,
  StoreUnavailableError,
  describeStoreError,
  isStoreUnavailable,
  type StoreLog,
} from './store-errors.ts';

export type { DialectAdapter, DialectName, PoolStats };

export type Db = Kysely<Database>;

export interface Store {
  db: Db;
  dialect: DialectName;
  greatest: DialectAdapter['greatest'];
  bytewise: DialectAdapter['bytewise'];
  poolStats?: DialectAdapter['poolStats'];
  settleTables?: DialectAdapter['settleTables'];
  withSerialConnection?: DialectAdapter['withSerialConnection'];
  checkpointInBackground?: DialectAdapter['checkpointInBackground'];
  close(): Promise<void>;
}

const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//.test(url);

/**
 * Picks the adapter for a `DATABASE_URL`: `postgres://…`, `sqlite:<file>`, `file:<file>` or
 * `:memory:`. Each driver is loaded only when its URL is used: a command on SQLite never loads
 * `pg`, and the reverse.
 */
async function adapterFor(url: string, options: OpenOptions): Promise<DialectAdapter> {
  if (isPostgresUrl(url)) {
    const { postgresAdapter } = await import('./postgres/dialect.ts');
    return postgresAdapter(url, {
      ...(options.schema ? { schema: options.schema } : {}),
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
      log: options.log ?? SILENT_STORE_LOG,
    });
  }
  const file = url.replace(/^(sqlite|file):(\/\/)?/, '');
  const { sqliteAdapter } = await import('./sqlite/dialect.ts');
  return sqliteAdapter(file, options.cacheKiB, options.tempFiles);
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;

export interface OpenOptions {
  /** PostgreSQL schema holding the tables (default: the connection's search path, usually public). */
  schema?: string;
  /** PostgreSQL: longest wait for a connection, in ms (default 5 s); then the query fails as unavailable. */
  connectTimeoutMs?: number;
  /** PostgreSQL: longest a statement may run, in ms (default 30 s). */
  statementTimeoutMs?: number;
  /**
   * How long opening keeps retrying while the database is unreachable, in ms (default 0: one
   * attempt). Each failed attempt is logged with its reason and the wait before the next.
   */
  startupTimeoutMs?: number;
  /** Where attempts and the database coming and going are reported (default: nowhere). */
  log?: StoreLog;
  /** SQLite: the connection's page cache, in KiB (default 64 MiB, the serving thread's). */
  cacheKiB?: number;
  /** SQLite: temporary b-trees in files the kernel caches, not in memory (default: memory). */
  tempFiles?: boolean;
}

/** Waits between attempts to reach the database at start-up: doubling from half a second, at most 5 s. */
const retryDelayMs = (attempt: number): number => Math.min(5_000, 500 * 2 ** (attempt - 1));

/**
 * Opens the store and applies pending migrations. While the database cannot be reached it
 * retries for `startupTimeoutMs`, then throws a StoreUnavailableError whose message is one line
 * for the operator; any other failure (a bad migration, a file that cannot be created) is
 * thrown at once.
 */
export async function openStore(url: string, options: OpenOptions = {}): Promise<Store> {
  const adapter = await adapterFor(url, options);
  const db = new Kysely<Database>({ dialect: adapter.dialect });
  const store: Store = {
    db,
    dialect: adapter.name,
    greatest: adapter.greatest,
    bytewise: adapter.bytewise,
    ...(adapter.poolStats ? { poolStats: adapter.poolStats } : {}),
    ...(adapter.settleTables ? { settleTables: adapter.settleTables } : {}),
    ...(adapter.withSerialConnection ? { withSerialConnection: adapter.withSerialConnection } : {}),
    ...(adapter.checkpointInBackground
      ? { checkpointInBackground: adapter.checkpointInBackground }
      : {}),
    close: () => db.destroy(),
  };
  const log = options.log ?? SILENT_STORE_LOG;
  const limitMs = options.startupTimeoutMs ?? 0;
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    try {
      await migrate(store, adapter, options.schema);
      if (attempt > 1) log.info(`Database ${describeLocation(url)} answered (attempt ${attempt})`);
      return store;
    } catch (error) {
      const elapsed = performance.now() - started;
      if (!isStoreUnavailable(error) || elapsed >= limitMs) {
        await db.destroy();
        if (!isStoreUnavailable(error)) throw error;
        throw new StoreUnavailableError(
          `The database ${describeLocation(url)} could not be reached` +
            (limitMs > 0 ? ` within ${Math.round(limitMs / 1000)} s` : '') +
            `: ${describeStoreError(error)}`,
          { cause: error },
        );
      }
      const delay = Math.min(retryDelayMs(attempt), limitMs - elapsed);
      log.warn(
        `Database ${describeLocation(url)} not reachable (attempt ${attempt}): ${describeStoreError(error)}; ` +
          `retrying in ${(delay / 1000).toFixed(1)} s, giving up ${Math.round((limitMs - elapsed) / 1000)} s from now`,
      );
      await sleep(delay);
    }
  }
}

/** The database's host, port and name (PostgreSQL) or file, never its credentials. */
function describeLocation(url: string): string {
  if (!isPostgresUrl(url)) return url.replace(/^(sqlite|file):(\/\/)?/, '');
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/**
 * Applies pending migrations: where the adapter has a dialect for them (see
 * `DialectAdapter.migrationDialect`), on a connection of their own; otherwise on the store's
 * (an in-memory SQLite database).
 */
async function migrate(store: Store, adapter: DialectAdapter, schema?: string): Promise<void> {
  const db = adapter.migrationDialect
    ? new Kysely<Database>({ dialect: adapter.migrationDialect() })
    : store.db;
  try {
    const migrator = new Migrator({
      db,
      ...(schema ? { migrationTableSchema: schema } : {}),
      provider: migrationProvider({ blobType: adapter.blobType, dialect: adapter.name }),
      // Migrations are added on parallel branches and each touches only its own tables, so a
      // store that already ran a later-numbered one still takes an earlier one that landed after it.
      allowUnorderedMigrations: true,
    });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
  } finally {
    if (db !== store.db) await db.destroy();
  }
}
