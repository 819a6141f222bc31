/**
 * Migration 0016 keeps SQLite's `player_matches` in one B-tree ordered by player and time: the
 * rows a store held before it are all there after it, one per player and match as before, and a
 * player's match list is read from the key in the order served, with no sort.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { openStore } from '../../src/store/store.ts';
import { listRecentMatchIds } from '../../src/store/players.ts';
import type { PlayerMatchesTable } from '../../src/store/schema.ts';
import { sqliteStoreAt, sqliteTableLayout } from '../helpers/old-store.ts';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 11, 7, 12);

type Row = PlayerMatchesTable;

/** Three players' matches on two platforms; two matches of one player share a created-at time. */
function rowsBefore(): Row[] {
  const row = (platform: string, account: string, match: string, hoursAgo: number): Row => ({
    platform,
    account_id: account,
    match_id: match,
    created_at: NOW - hoursAgo * HOUR,
    game_mode: 'squad-fpp',
    season_id: 'division.bro.official.pc-2018-45',
    is_custom: hoursAgo === 7 ? 1 : 0,
  });
  return [
    row('pc-b', 'account.b', 'match-1', 30),
    row('pc-b', 'account.b', 'match-4', 2),
    row('pc-b', 'account.b', 'match-2', 7),
    row('pc-b', 'account.b', 'match-3', 7),
    row('pc-b', 'account.a', 'match-1', 30),
    row('pc-b', 'account.a', 'match-5', 1),
    row('pc-a', 'account.b', 'match-6', 3),
  ];
}

const byKey = (a: Row, b: Row): number =>
  `${a.platform} ${a.account_id} ${a.match_id}`.localeCompare(
    `${b.platform} ${b.account_id} ${b.match_id}`,
  );

test('[sqlite] migration 0016 keeps every match-list row and reads a list from its key, unsorted', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-player-matches-'));
  try {
    const file = path.join(dir, 'store.sqlite');
    const old = await sqliteStoreAt(file, '0015-season-stats-region');
    await old.insertInto('player_matches').values(rowsBefore()).execute();
    await old.destroy();

    const store = await openStore(`sqlite:${file}`);
    try {
      const after = (await store.db.selectFrom('player_matches').selectAll().execute()).map(
        (r) => ({ ...r, created_at: Number(r.created_at) }),
      );
      assert.deepEqual([...after].sort(byKey), [...rowsBefore()].sort(byKey));

      const lists = await listRecentMatchIds(
        store.db,
        'pc-b',
        ['account.a', 'account.b'],
        NOW - 24 * HOUR,
      );
      assert.deepEqual(Object.fromEntries(lists.lists), {
        'account.a': ['match-5'],
        'account.b': ['match-4', 'match-3', 'match-2'],
      });
      assert.equal(lists.oldestAt, NOW - 7 * HOUR);
    } finally {
      await store.close();
    }

    const database = new BetterSqlite3(file);
    try {
      const { definition, indexes } = sqliteTableLayout(database, 'player_matches');
      assert.match(definition, /WITHOUT ROWID/);
      assert.deepEqual(indexes, ['player_matches_by_match'], 'no index repeats the key');
      const plan = database
        .prepare(
          `explain query plan select account_id, match_id, created_at from player_matches
           where platform = ? and account_id in (?) and created_at >= ?
           order by account_id, created_at desc, match_id desc`,
        )
        .all('pc-b', 'account.b', 0) as Array<{ detail: string }>;
      const steps = plan.map((step) => step.detail).join(' | ');
      assert.match(steps, /USING PRIMARY KEY/);
      assert.doesNotMatch(steps, /TEMP B-TREE/, 'the list comes in the order served');
      // Still one row per platform, player and match.
      const again = rowsBefore()[0]!;
      assert.throws(
        () =>
          database
            .prepare(
              `insert into player_matches (platform, account_id, match_id, created_at, game_mode,
               season_id, is_custom) values (?, ?, ?, ?, ?, ?, ?)`,
            )
            .run(...Object.values(again)),
        /UNIQUE constraint failed/,
      );
    } finally {
      database.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
