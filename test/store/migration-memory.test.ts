/**
 * SQLite migrations run on a connection of their own with a small page cache: one that rewrites
 * a large table (0018 rebuilds `weapon_mastery`) reads and writes every page of it, and on the
 * store's connection it filled that connection's page cache, memory a serving process then kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { WeaponMasteryTable } from '../../src/store/mastery-tables.ts';
import { sqliteStoreAt, sqliteTableLayout } from '../helpers/old-store.ts';
import { openStoreInProcess } from '../helpers/open-store-in-process.ts';

const MB = 1024 * 1024;
/** Rows of the table to rewrite: about 40 MB of it, more than the migrations' cache many times. */
const ROWS = 200_000;
/** Rows an insert statement takes (20 columns: well under SQLite's 32,766 parameters). */
const CHUNK = 1_000;

const row = (n: number): WeaponMasteryTable => ({
  platform: 'steam',
  account_id: `account.${String(n).padStart(32, '0')}`,
  weapon_id: `Item_Weapon_${n % 40}_C`,
  kind: 'official',
  xp: n,
  kills: n % 50,
  defeats: n % 45,
  groggies: n % 30,
  head_shots: n % 20,
  damage_player: n * 1.5,
  long_range_defeats: n % 7,
  longest_defeat: n % 500,
  longest_kill: n % 600,
  most_kills: n % 9,
  most_defeats: n % 8,
  most_groggies: n % 6,
  most_head_shots: n % 5,
  most_damage_player: n % 900,
  latest_match_id: `match-${n}`,
  latest_match_at: 1_700_000_000_000 + n,
});

test('[sqlite] a migration rewriting a large table leaves little of it resident', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-migration-memory-'));
  try {
    const file = path.join(dir, 'store.sqlite');
    const old = await sqliteStoreAt(file, '0017-stat-days-one-copy');
    await old.transaction().execute(async (trx) => {
      for (let start = 0; start < ROWS; start += CHUNK) {
        const rows = Array.from({ length: CHUNK }, (_, i) => row(start + i));
        await trx.insertInto('weapon_mastery').values(rows).execute();
      }
    });
    await old.destroy();
    assert.ok(fs.statSync(file).size > 32 * MB, 'a table larger than the store cache could hold');

    const { code, output } = await openStoreInProcess(file);
    assert.equal(code, 0, output);
    const { rssGrowth } = JSON.parse(/migrated (.*)/.exec(output)![1]!) as { rssGrowth: number };
    // On the store's connection, whose page cache it filled: 75 MB. On a connection of its own: 6–7.
    assert.ok(rssGrowth < 24 * MB, `resident memory grew by ${(rssGrowth / MB).toFixed(1)} MB`);

    const database = new BetterSqlite3(file, { readonly: true });
    try {
      assert.match(sqliteTableLayout(database, 'weapon_mastery').definition, /WITHOUT ROWID/);
      const count = database.prepare('select count(*) from weapon_mastery').pluck().get();
      assert.equal(count, ROWS);
    } finally {
      database.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
