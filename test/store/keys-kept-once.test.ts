/**
 * Migration 0018 keeps SQLite's weapon mastery, weapon medals and ranked results as tables that
 * are ordered by their key, with no index repeating it: the rows a store held before are all
 * there after, a player's careers read as before, ingest's upserts still add to the stored rows,
 * and a key is still refused twice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { openStore } from '../../src/store/store.ts';
import { findWeaponMastery } from '../../src/store/mastery-reads.ts';
import { writeMatchMastery } from '../../src/store/mastery-writes.ts';
import type { WeaponMasteryTable, WeaponMedalsTable } from '../../src/store/mastery-tables.ts';
import type { RankedResultsTable } from '../../src/store/schema.ts';
import { sqliteStoreAt, sqliteTableLayout } from '../helpers/old-store.ts';

const PLATFORM = 'steam';
const AKM = 'Item_Weapon_AK47_C';
const M416 = 'Item_Weapon_HK416_C';

const weapon = (
  account: string,
  weaponId: string,
  kills: number,
  at: number,
): WeaponMasteryTable => ({
  platform: PLATFORM,
  account_id: account,
  weapon_id: weaponId,
  kind: 'official',
  xp: kills * 100,
  kills,
  defeats: kills,
  groggies: 1,
  head_shots: 0,
  damage_player: kills * 90.5,
  long_range_defeats: 0,
  longest_defeat: 40.25,
  longest_kill: 40.25,
  most_kills: kills,
  most_defeats: kills,
  most_groggies: 1,
  most_head_shots: 0,
  most_damage_player: kills * 90.5,
  latest_match_id: `match-${at}`,
  latest_match_at: at,
});

const medal = (account: string, weaponId: string, medalId: string, count: number) =>
  ({
    platform: PLATFORM,
    account_id: account,
    weapon_id: weaponId,
    medal_id: medalId,
    count,
  }) satisfies WeaponMedalsTable;

const ranked = (account: string, at: number, place: number): RankedResultsTable => ({
  platform: PLATFORM,
  account_id: account,
  season_id: 'division.bro.official.pc-2018-33',
  game_mode: 'squad-fpp',
  created_at: at,
  match_id: `match-${at}`,
  win_place: place,
  won: place === 1 ? 1 : 0,
  kills: 2,
  assists: 1,
  dbnos: 2,
  damage_dealt: 250.5,
  died: place === 1 ? 0 : 1,
});

const WEAPONS = [weapon('account.b', AKM, 3, 1_000), weapon('account.a', M416, 5, 2_000)];
const MEDALS = [
  medal('account.a', M416, 'Medal_Headshot', 2),
  medal('account.b', AKM, 'Medal_Longshot', 1),
];
const RANKED = [ranked('account.a', 3_000, 4), ranked('account.a', 1_000, 1)];

const TABLES = ['weapon_mastery', 'weapon_medals', 'ranked_results'] as const;

test('[sqlite] migration 0018 keeps every mastery and ranked row once, read and added to as before', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-keys-once-'));
  try {
    const file = path.join(dir, 'store.sqlite');
    const old = await sqliteStoreAt(file, '0017-stat-days-one-copy');
    await old.insertInto('weapon_mastery').values(WEAPONS).execute();
    await old.insertInto('weapon_medals').values(MEDALS).execute();
    await old.insertInto('ranked_results').values(RANKED).execute();
    await old.destroy();

    const store = await openStore(`sqlite:${file}`);
    try {
      const db = store.db;
      assert.deepEqual(
        await db.selectFrom('weapon_mastery').selectAll().orderBy('account_id').execute(),
        [WEAPONS[1], WEAPONS[0]],
      );
      assert.deepEqual(
        await db.selectFrom('weapon_medals').selectAll().orderBy('account_id').execute(),
        MEDALS,
      );
      assert.deepEqual(
        await db.selectFrom('ranked_results').selectAll().orderBy('created_at').execute(),
        [RANKED[1], RANKED[0]],
      );

      // A player's career reads as it did.
      const before = await findWeaponMastery(db, PLATFORM, 'account.a');
      assert.equal(before.latestMatchAt, 2_000);
      assert.deepEqual(
        before.weapons.map((w) => [w.weaponId, w.kinds.get('official')?.kills, w.medals]),
        [[M416, 5, [{ medalId: 'Medal_Headshot', count: 2 }]]],
      );

      // A new match adds to the stored rows, as ingest writes it.
      await writeMatchMastery(db, store, {
        weapons: [weapon('account.a', M416, 2, 4_000)],
        medals: [
          medal('account.a', M416, 'Medal_Headshot', 1),
          medal('account.a', M416, 'Medal_Assault', 1),
        ],
        survival: [],
        pending: null,
      });
      const after = await findWeaponMastery(db, PLATFORM, 'account.a');
      assert.equal(after.latestMatchAt, 4_000);
      const m416 = after.weapons.find((w) => w.weaponId === M416);
      assert.equal(m416?.kinds.get('official')?.kills, 7);
      assert.equal(m416?.kinds.get('official')?.mostKills, 5);
      assert.deepEqual(
        [...(m416?.medals ?? [])].sort((a, b) => a.medalId.localeCompare(b.medalId)),
        [
          { medalId: 'Medal_Assault', count: 1 },
          { medalId: 'Medal_Headshot', count: 3 },
        ],
      );

      // The key is still the key.
      await assert.rejects(
        db.insertInto('ranked_results').values(RANKED[0]!).execute(),
        /UNIQUE constraint failed: ranked_results/,
      );
      await assert.rejects(
        db.insertInto('weapon_medals').values(MEDALS[0]!).execute(),
        /UNIQUE constraint failed: weapon_medals/,
      );
    } finally {
      await store.close();
    }

    const database = new BetterSqlite3(file, { readonly: true });
    try {
      for (const table of TABLES) {
        const { definition, indexes } = sqliteTableLayout(database, table);
        assert.match(definition, new RegExp(`^CREATE TABLE "${table}" \\(.*\\) WITHOUT ROWID$`));
        assert.deepEqual(indexes, [], `no index repeats the rows of ${table}`);
      }
    } finally {
      database.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
