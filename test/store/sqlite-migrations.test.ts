/**
 * SQLite migrations run in one transaction holding the write lock (src/store/sqlite/dialect.ts):
 * processes that open a new store at the same moment — serve beside `gamedata jobs run`, two
 * instances — each migrate it or find it migrated, and neither fails on a table the other made.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { openStore } from '../../src/store/store.ts';
import { openStoreInProcess } from '../helpers/open-store-in-process.ts';

/** New stores opened by two processes at once; before the fix about half of them failed. */
const ROUNDS = 6;

/** The names of the file's tables and indexes, and the migrations it records. */
function schemaOf(file: string): { objects: string[]; migrations: string[] } {
  const database = new BetterSqlite3(file, { readonly: true });
  try {
    const objects = database
      .prepare("select type || ' ' || name as what from sqlite_master order by what")
      .pluck()
      .all() as string[];
    const migrations = database
      .prepare('select name from kysely_migration order by name')
      .pluck()
      .all() as string[];
    return { objects, migrations };
  } finally {
    database.close();
  }
}

test('two processes opening one new SQLite store at once both start, on one whole schema', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-migrate-'));
  try {
    const alone = path.join(dir, 'alone.sqlite');
    await (await openStore(`sqlite:${alone}`)).close();
    const expected = schemaOf(alone);
    assert.ok(expected.migrations.length > 0);
    for (let round = 0; round < ROUNDS; round++) {
      const file = path.join(dir, `together-${round}.sqlite`);
      const results = await Promise.all([openStoreInProcess(file), openStoreInProcess(file)]);
      for (const { code, output } of results) {
        assert.equal(code, 0, `round ${round}: ${output}`);
        assert.match(output, /migrated/);
      }
      assert.deepEqual(schemaOf(file), expected, `round ${round}: the schema of one migration`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
