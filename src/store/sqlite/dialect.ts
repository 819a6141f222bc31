import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type DialectAdapter as KyselyDialectAdapter,
  type Driver,
  type QueryResult,
  type Expression,
  type RawBuilder,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import type { DialectAdapter } from '../dialect-adapter.ts';
import { BUSY_TIMEOUT_MS } from './lock-wait.ts';
import { checkpointInBackground, type CheckpointOptions } from './checkpoints.ts';
import { turnForQuery } from './query-turns.ts';

/** Prepared statements kept per connection: every query shape the service runs fits many times over. */
const STATEMENT_CACHE_SIZE = 512;

/** WAL pages at which a commit checkpoints (unless a thread of its own does, see below). */
const AUTOCHECKPOINT_PAGES = 16_000;

/** The page cache of a connection, in KiB, unless told otherwise: the serving thread's. */
export const DEFAULT_CACHE_KIB = 65_536;

/**
 * Opens a SQLite file (created with its directory when missing) in WAL mode. Statements are
 * prepared once per SQL text and reused: Kysely would otherwise prepare every query anew, which
 * costs more than running most of them. `cacheKiB` bounds the connection's own page cache (the
 * file's pages stay in the kernel's cache whatever it is): memory a thread keeps once it has
 * read that much, however long it then idles. `tempFiles`: SQLite's temporary b-trees (large
 * sorts, the row lists of a large DELETE) go to temporary files, which the kernel caches, rather
 * than into this process's memory.
 */
export function sqliteAdapter(
  file: string,
  cacheKiB: number = DEFAULT_CACHE_KIB,
  tempFiles = false,
): DialectAdapter {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = openConnection(file, cacheKiB, tempFiles);
  return {
    name: 'sqlite',
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(database) }),
    blobType: 'blob',
    greatest: <T>(a: Expression<T>, b: Expression<T>): RawBuilder<T> => sql<T>`max(${a}, ${b})`,
    // BINARY, SQLite's default collation, already compares the UTF-8 bytes.
    bytewise: (value: Expression<string>): RawBuilder<string> => sql<string>`${value}`,
    ...(file === ':memory:'
      ? {}
      : {
          checkpointInBackground: (options) => checkpointAside(database, file, options),
          migrationDialect: () =>
            new ImmediateSqliteDialect({ database: migrationConnection(file) }),
        }),
  };
}

/** The page cache of the migrations' connection, in KiB. */
const MIGRATION_CACHE_KIB = 2_048;

/**
 * A connection of their own for the migrations, closed when they are done, with a small page
 * cache and its temporary b-trees in files. A migration that rewrites a table reads and writes
 * every page of it. On the store's connection it filled that connection's page cache (up to
 * DEFAULT_CACHE_KIB) with pages nothing would read again, memory the process kept as long as it
 * ran: a serving process on the bench's demo store upgraded to 0018 held 296–335 MB under load,
 * against 237–283 on a store made new. Opening that store (migrating it) added 65 MB to the
 * process's resident memory on the store's connection, 11 MB on this one. A million-player store
 * made at 0015 (`gamedata demo --scale 0.1 --players 1000000`), opened: 610 MB resident at most
 * and 159 MB after on the store's connection, 119 and 89 on this one, in 74 s against 71.
 */
function migrationConnection(file: string): BetterSqlite3.Database {
  return openConnection(file, MIGRATION_CACHE_KIB, true);
}

/** A connection to `file` in WAL mode, with the page cache and temporary storage asked for. */
function openConnection(
  file: string,
  cacheKiB: number,
  tempFiles: boolean,
): BetterSqlite3.Database {
  const database = new BetterSqlite3(file);
  // Writes of the serving thread that may meet a job's lock wait with timers instead
  // (src/store/sqlite/lock-wait.ts); this bounds every other wait, the migration lock's included
  // (MigratingSqliteAdapter). Set first: switching a new file to WAL waits for the lock too when
  // another process opens it at the same moment. Every connection sets the mode: a new file is
  // empty until one writes its first page, and made by one that did not, it would be a file for
  // a rollback journal.
  database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  database.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode; only power loss can drop the last commits.
  database.pragma('synchronous = NORMAL');
  // Checkpoint every ~64 MB of WAL rather than every 4 MB: ingest writes a few hundred pages per
  // match, and frequent checkpoints rewrite the same hot index pages over and over.
  database.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  database.pragma(`cache_size = -${Math.max(1, Math.floor(cacheKiB))}`);
  database.pragma(tempFiles ? 'temp_store = FILE' : 'temp_store = MEMORY');
  return database;
}

/**
 * Checkpoints from a thread of its own (checkpoints.ts) and, meanwhile, never in a commit of this
 * connection: the log can grow far past the limit in another connection's transaction (a purge
 * or a leaderboard rebuild in the job thread, a posted match in an ingest worker), and the next
 * small commit here — a job's lease, say — would otherwise copy all of it, in the serving thread.
 * Those connections keep checkpointing their own commits, in their own threads.
 */
function checkpointAside(
  database: BetterSqlite3.Database,
  file: string,
  options: CheckpointOptions = {},
): () => Promise<void> {
  database.pragma('wal_autocheckpoint = 0');
  const stop = checkpointInBackground(file, options);
  return async () => {
    await stop();
    if (database.open) database.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  };
}

function withStatementCache(database: BetterSqlite3.Database): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => database.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (statement === undefined) {
        statement = database.prepare(text);
        if (statements.size >= STATEMENT_CACHE_SIZE)
          statements.delete(statements.keys().next().value!);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * SQLite's Kysely dialect with every transaction begun IMMEDIATE, taking the write lock at its
 * start. A deferred transaction that reads and then writes cannot wait for a lock taken by
 * another connection meanwhile: SQLite answers SQLITE_BUSY at once (the busy handler is not
 * called for that upgrade), so a purge reading what to delete failed whenever an ingest
 * committed in between. Every transaction here writes; waiting for the lock happens at BEGIN,
 * in the busy handler or, on the serving thread, with timers (lock-wait.ts).
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createAdapter(): KyselyDialectAdapter {
    return new MigratingSqliteAdapter();
  }
}

/**
 * Migrations in one transaction, begun IMMEDIATE like every other. Kysely's SQLite adapter runs
 * them without one and without a lock, as if no other process could open the file: two processes
 * starting on a new store (serve and `gamedata jobs run`, two instances) ran the same migrations
 * at once, and the second failed on a table the first had just made; a process stopped midway
 * left a half-made schema behind. SQLite's DDL is transactional, and the transaction's write
 * lock, taken before the migrations table is read, is the migration lock: the second process
 * waits for the first to commit (busy_timeout), then finds nothing left to run.
 */
class MigratingSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  #turned: DatabaseConnection | undefined;

  /** The one connection, its queries sharing the event loop's turns (query-turns.ts). */
  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    if (this.#turned === undefined) this.#turned = queryTurnsOf(connection);
    return this.#turned;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** `connection` with each query waiting for a later turn of the event loop once this one's share is spent. */
function queryTurnsOf(connection: DatabaseConnection): DatabaseConnection {
  return {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      const wait = turnForQuery();
      if (wait !== undefined) await wait;
      return connection.executeQuery<R>(query);
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}
