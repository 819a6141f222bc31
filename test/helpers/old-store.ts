/**
 * A SQLite store as an older release left it: the file migrated up to and including one named
 * migration, for tests of what a later migration does to rows stored before it.
 */
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrationProvider } from '../../src/store/migrations/index.ts';

/** Opens `file` migrated to `migration`; throws if that fails. Destroy it before reopening. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a past schema, untyped
export async function sqliteStoreAt(file: string, migration: string): Promise<Kysely<any>> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a past schema, untyped
  const old = new Kysely<any>({
    dialect: new SqliteDialect({ database: new BetterSqlite3(file) }),
  });
  const migrator = new Migrator({
    db: old,
    provider: migrationProvider({ blobType: 'blob', dialect: 'sqlite' }),
  });
  const { error } = await migrator.migrateTo(migration);
  if (error !== undefined) {
    await old.destroy();
    throw error instanceof Error ? error : new Error(String(error));
  }
  return old;
}

/** How a SQLite file keeps `table`: its CREATE TABLE statement and the names of its indexes. */
export function sqliteTableLayout(
  database: BetterSqlite3.Database,
  table: string,
): { definition: string; indexes: string[] } {
  const definition = database
    .prepare("select sql from sqlite_master where type = 'table' and name = ?")
    .pluck()
    .get(table) as string;
  const indexes = database
    .prepare("select name from sqlite_master where type = 'index' and tbl_name = ?")
    .pluck()
    .all(table) as string[];
  return { definition, indexes };
}
