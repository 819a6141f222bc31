/**
 * The databases every store-touching test runs on: SQLite in memory always, and PostgreSQL when
 * TEST_DATABASE_URL is set — each test store in its own fresh schema, dropped afterwards, so
 * test files can run in parallel against one database.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openStore, type Store } from '../../src/store/store.ts';
import type { Config } from '../../src/config.ts';
import type { StoreTarget } from '../../src/ingest/prepare-pool.ts';

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  /** Opens a new, empty, migrated store. Close it with `store.close()`. */
  open(): Promise<Store>;
}

/**
 * Kysely's migrator lists the tables of every schema in the database; a schema dropped by
 * another test file in the middle of that listing fails it ("schema … does not exist"). Test
 * files run in parallel, so creating-and-migrating and dropping take turns under one advisory lock.
 */
const SCHEMA_LOCK = 'gamedata-test-schemas';

export async function withSchemaLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [SCHEMA_LOCK]);
    return await work();
  } finally {
    await admin.end();
  }
}

async function openPostgresSchema(
  url: string,
  schema = `test_${crypto.randomBytes(6).toString('hex')}`,
): Promise<Store> {
  const store = await withSchemaLock(url, async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    return openStore(url, { schema });
  });
  const close = store.close;
  store.close = async () => {
    await close();
    await withSchemaLock(url, async () => {
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    });
  };
  return store;
}

export const testDatabases: TestDatabase[] = [
  { name: 'sqlite', open: () => openStore('sqlite::memory:') },
  ...(process.env.TEST_DATABASE_URL
    ? [
        {
          name: 'postgres' as const,
          open: () => openPostgresSchema(process.env.TEST_DATABASE_URL!),
        },
      ]
    : []),
];

/**
 * A test database that other connections can open too — a worker thread's, as `serve`'s ingest
 * workers do: SQLite in a file, PostgreSQL in a schema of its own.
 */
export interface SharedTestDatabase extends TestDatabase {
  /** Where the store `open` made last is, as a pool's workers are told (over `config`). */
  target(config: Readonly<Config>): StoreTarget;
}

function sqliteFileDatabase(): SharedTestDatabase {
  let file = '';
  return {
    name: 'sqlite',
    async open() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-shared-'));
      file = path.join(dir, 'test.sqlite');
      const store = await openStore(`sqlite:${file}`);
      const close = store.close;
      store.close = async () => {
        await close();
        fs.rmSync(dir, { recursive: true, force: true });
      };
      return store;
    },
    target: (config) => ({ config: { ...config, databaseUrl: `sqlite:${file}` } }),
  };
}

function postgresSchemaDatabase(url: string): SharedTestDatabase {
  let schema = '';
  return {
    name: 'postgres',
    open() {
      schema = `test_${crypto.randomBytes(6).toString('hex')}`;
      return openPostgresSchema(url, schema);
    },
    target: (config) => ({ config: { ...config, databaseUrl: url }, schema }),
  };
}

export const sharedTestDatabases: SharedTestDatabase[] = [
  sqliteFileDatabase(),
  ...(process.env.TEST_DATABASE_URL ? [postgresSchemaDatabase(process.env.TEST_DATABASE_URL)] : []),
];
