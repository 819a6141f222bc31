/**
 * The store: a Kysely instance over SQLite (default) or PostgreSQL, migrated to the latest
 * schema when opened. Query functions elsewhere in `src/store/` take the store (or a
 * transaction's `db`) as their first argument.
 */
import { Kysely, Migrator, type Dialect, type Expression, type RawBuilder } from 'kysely';
import type { Database } from './schema.ts';
import { migrationProvider } from './migrations/index.ts';
import { sqliteAdapter } from './sqlite/dialect.ts';
import { postgresAdapter } from './postgres/dialect.ts';

export type DialectName = 'sqlite' | 'postgres';

/** What differs between the two databases; nothing dialect-specific lives outside these adapters. */
export interface DialectAdapter {
  name: DialectName;
  dialect: Dialect;
  blobType: 'blob' | 'bytea';
  /** The larger of two values (`max(a, b)` on SQLite, `greatest(a, b)` on PostgreSQL). */
  greatest<T>(a: Expression<T>, b: Expression<T>): RawBuilder<T>;
}

export type Db = Kysely<Database>;

export interface Store {
  db: Db;
  dialect: DialectName;
  greatest: DialectAdapter['greatest'];
  close(): Promise<void>;
}

/** Picks the adapter for a `DATABASE_URL`: `postgres://…`, `sqlite:<file>`, `file:<file>` or `:memory:`. */
function adapterFor(url: string, options: OpenOptions): DialectAdapter {
  if (/^postgres(ql)?:\/\//.test(url)) return postgresAdapter(url, options.schema);
  const file = url.replace(/^(sqlite|file):(\/\/)?/, '');
  return sqliteAdapter(file);
}

export interface OpenOptions {
  /** PostgreSQL schema holding the tables (default: the connection's search path, usually public). */
  schema?: string;
}

/** Opens the store and applies pending migrations. */
export async function openStore(url: string, options: OpenOptions = {}): Promise<Store> {
  const adapter = adapterFor(url, options);
  const db = new Kysely<Database>({ dialect: adapter.dialect });
  const store: Store = {
    db,
    dialect: adapter.name,
    greatest: adapter.greatest,
    close: () => db.destroy(),
  };
  try {
    await migrate(store, adapter, options.schema);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return store;
}

async function migrate(store: Store, adapter: DialectAdapter, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db: store.db,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: migrationProvider({ blobType: adapter.blobType }),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
