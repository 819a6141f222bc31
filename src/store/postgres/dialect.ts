import pg from 'pg';
import { PostgresDialect, sql, type Dialect, type Expression, type RawBuilder } from 'kysely';
import type { DialectAdapter } from '../dialect-adapter.ts';
import { availabilityReporter, type StoreLog } from '../store-errors.ts';
import { resilientPool } from './resilient-pool.ts';

const INT8_OID = 20;

/** Connections one process keeps at most. */
const POOL_SIZE = 10;

/**
 * How much longer than the server's statement timeout the client waits for an answer before
 * giving the connection up: covers a server or network that went silent without closing it.
 */
const READ_TIMEOUT_MARGIN_MS = 2_000;

export interface PostgresOptions {
  /** Schema holding the tables (default: the connection's search path, usually public). */
  schema?: string;
  /** Longest wait for a connection — a free pool slot or a new session — in ms. */
  connectTimeoutMs: number;
  /** Longest a statement may run on the server (statement_timeout), in ms. */
  statementTimeoutMs: number;
  log: StoreLog;
}

const APPLICATION_NAME = 'gamedata-api';

/**
 * A dialect of one connection for the migrator alone, without the statement and read timeouts
 * of the store's pool: a migration rewrites whole tables (filling a new column, building an
 * index), which on a large store takes longer than any query should, and cut short it would
 * roll back and be retried at every start. The wait for the connection stays bounded.
 */
function postgresMigrationDialect(
  url: string,
  options: Omit<PostgresOptions, 'statementTimeoutMs'>,
): Dialect {
  const settings = [
    // 0 turns off a statement_timeout that the server, database or role may set.
    '-c statement_timeout=0',
    ...(options.schema ? [`-c search_path=${options.schema}`] : []),
  ];
  const pool = new pg.Pool({
    connectionString: url,
    options: settings.join(' '),
    application_name: `${APPLICATION_NAME} migrations`,
    max: 1,
    connectionTimeoutMillis: options.connectTimeoutMs,
    keepAlive: true,
  });
  return new PostgresDialect({
    pool: resilientPool(pool, availabilityReporter('PostgreSQL', options.log)),
  });
}

/**
 * Connects a pool to PostgreSQL. Timestamps are bigint columns, read back as JS numbers. Every
 * wait is bounded (connect, statement, read) and a lost server is reported, never thrown at the
 * process: see resilientPool.
 */
export function postgresAdapter(url: string, options: PostgresOptions): DialectAdapter {
  const pool = new pg.Pool({
    connectionString: url,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    application_name: APPLICATION_NAME,
    max: POOL_SIZE,
    connectionTimeoutMillis: options.connectTimeoutMs,
    statement_timeout: options.statementTimeoutMs,
    query_timeout: options.statementTimeoutMs + READ_TIMEOUT_MARGIN_MS,
    // Notices a peer that vanished without closing (a failed-over host) on idle connections.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  return {
    name: 'postgres',
    dialect: new PostgresDialect({
      pool: resilientPool(pool, availabilityReporter('PostgreSQL', options.log)),
    }),
    blobType: 'bytea',
    greatest: <T>(a: Expression<T>, b: Expression<T>): RawBuilder<T> =>
      sql<T>`greatest(${a}, ${b})`,
    bytewise: (value: Expression<string>): RawBuilder<string> => sql<string>`${value} COLLATE "C"`,
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    migrationDialect: () =>
      postgresMigrationDialect(url, {
        ...(options.schema ? { schema: options.schema } : {}),
        connectTimeoutMs: options.connectTimeoutMs,
        log: options.log,
      }),
    settleTables: async (db, tables) => {
      // VACUUM runs outside any transaction: one statement per table.
      for (const table of tables) await sql`VACUUM (ANALYZE) ${sql.table(table)}`.execute(db);
    },
    withSerialConnection: (db, work) =>
      db.connection().execute(async (connection) => {
        await sql`SET max_parallel_workers_per_gather = 0`.execute(connection);
        await sql`SET jit = off`.execute(connection);
        const reset = async () => {
          await sql`RESET max_parallel_workers_per_gather`.execute(connection);
          await sql`RESET jit`.execute(connection);
        };
        // Reset before the connection goes back to the pool; a failed reset must not hide
        // the error that ended the work.
        const result = await work(connection).catch(async (error: unknown) => {
          await reset().catch(() => {});
          throw error;
        });
        await reset();
        return result;
      }),
  };
}
