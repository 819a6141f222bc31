import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { openStore } from '../../src/store/store.ts';
import { findApiKeyByHash, hashApiKey } from '../../src/store/api-keys.ts';

test('keys made before scopes existed become read keys (migration 0004-key-scopes)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-scopes-'));
  const file = path.join(dir, 'old.sqlite');
  try {
    // A store as the release before scopes left it, with one key.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a past schema, untyped
    const old = new Kysely<any>({
      dialect: new SqliteDialect({ database: new BetterSqlite3(file) }),
    });
    const migrator = new Migrator({
      db: old,
      provider: migrationProvider({ blobType: 'blob', dialect: 'sqlite' }),
    });
    const { error } = await migrator.migrateTo('0002-jobs-leaderboards-samples');
    assert.equal(error, undefined);
    await old
      .insertInto('api_keys')
      .values({
        id: 'key_old',
        name: 'site',
        key_hash: hashApiKey('gd_old'),
        rate_per_minute: 10,
        created_at: 0,
        revoked_at: null,
      })
      .execute();
    await old.destroy();

    const store = await openStore(`sqlite:${file}`);
    try {
      const key = await findApiKeyByHash(store.db, hashApiKey('gd_old'));
      assert.equal(key?.scope, 'read');
    } finally {
      await store.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
