import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/store/store.ts';
import { sqliteStoreAt } from '../helpers/old-store.ts';
import { findApiKeyByHash, hashApiKey } from '../../src/store/api-keys.ts';

test('keys made before scopes existed become read keys (migration 0004-key-scopes)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-scopes-'));
  const file = path.join(dir, 'old.sqlite');
  try {
    // A store as the release before scopes left it, with one key.
    const old = await sqliteStoreAt(file, '0002-jobs-leaderboards-samples');
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
