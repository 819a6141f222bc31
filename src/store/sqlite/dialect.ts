import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { SqliteDialect, sql, type Expression, type RawBuilder } from 'kysely';
import type { DialectAdapter } from '../store.ts';

/** Opens a SQLite file (created with its directory when missing) in WAL mode. */
export function sqliteAdapter(file: string): DialectAdapter {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = new BetterSqlite3(file);
  database.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode; only power loss can drop the last commits.
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  return {
    name: 'sqlite',
    dialect: new SqliteDialect({ database }),
    blobType: 'blob',
    greatest: <T>(a: Expression<T>, b: Expression<T>): RawBuilder<T> => sql<T>`max(${a}, ${b})`,
  };
}
