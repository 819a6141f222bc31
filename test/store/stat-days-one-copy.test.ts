/**
 * Migration 0017 keeps SQLite's `stat_days` once, as a table that is its key: the days a store
 * held before it are all there after it, and ingest's insert still tells the new days from the
 * ones already counted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { openStore } from '../../src/store/store.ts';
import type { StatDaysTable } from '../../src/store/schema.ts';
import { sqliteStoreAt, sqliteTableLayout } from '../helpers/old-store.ts';

const SEASON = 'division.bro.official.pc-2018-45';

const day = (account: string, mode: string, n: number): StatDaysTable => ({
  platform: 'pc-b',
  account_id: account,
  season_id: SEASON,
  game_mode: mode,
  day: n,
});

const DAYS_BEFORE = [
  day('account.b', 'squad-fpp', 20_429),
  day('account.a', 'squad-fpp', 20_430),
  day('account.a', 'squad-fpp', 20_428),
  day('account.a', 'duo', 20_430),
];

const text = (d: StatDaysTable): string =>
  `${d.platform} ${d.account_id} ${d.season_id} ${d.game_mode} ${d.day}`;

test('[sqlite] migration 0017 keeps every stat day, once, and the new-day insert still works', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-stat-days-'));
  try {
    const file = path.join(dir, 'store.sqlite');
    const old = await sqliteStoreAt(file, '0016-player-matches-by-player');
    await old.insertInto('stat_days').values(DAYS_BEFORE).execute();
    await old.destroy();

    const store = await openStore(`sqlite:${file}`);
    try {
      const after = await store.db.selectFrom('stat_days').selectAll().execute();
      assert.deepEqual(after.map(text).sort(), DAYS_BEFORE.map(text).sort());
      // As ingest adds a match's days: only the new ones come back.
      const inserted = await store.db
        .insertInto('stat_days')
        .values([day('account.a', 'squad-fpp', 20_430), day('account.a', 'squad-fpp', 20_431)])
        .onConflict((oc) => oc.doNothing())
        .returning(['account_id', 'day'])
        .execute();
      assert.deepEqual(inserted, [{ account_id: 'account.a', day: 20_431 }]);
    } finally {
      await store.close();
    }

    const database = new BetterSqlite3(file, { readonly: true });
    try {
      const { definition, indexes } = sqliteTableLayout(database, 'stat_days');
      assert.match(definition, /WITHOUT ROWID/);
      assert.deepEqual(indexes, [], 'no index repeats the rows');
    } finally {
      database.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
