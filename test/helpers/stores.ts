/**
 * The databases every store-touching test runs on: SQLite in memory always, and PostgreSQL when
 * TEST_DATABASE_URL is set — each test store in its own fresh schema, dropped afterwards, so
 * test files can run in parallel against one database.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { openStore, type Store } from '../../src/store/store.ts';

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  /** Opens a new, empty, migrated store. Close it with `store.close()`. */
  open(): Promise<Store>;
}

async function openPostgresSchema(url: string): Promise<Store> {
  const schema = `test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const store = await openStore(url, { schema });
  const close = store.close;
  store.close = async () => {
    await close();
    const cleanup = new pg.Client({ connectionString: url });
    await cleanup.connect();
    await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
    await cleanup.end();
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
