import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { testDatabases } from '../helpers/stores.ts';
import { executeBatched } from '../../src/store/batched-statements.ts';
import type { WeaponMedalsTable } from '../../src/store/mastery-tables.ts';
import type { Store } from '../../src/store/store.ts';

const medal = (i: number, count: number): WeaponMedalsTable => ({
  platform: 'steam',
  account_id: `account.${String(i).padStart(4, '0')}`,
  weapon_id: 'Item_Weapon_AK47_C',
  medal_id: 'Headshot',
  count,
});

/** The medals upsert as ingest runs it: one statement text per chunk size, reused. */
const upsertMedals = (store: Store, name: string, rows: readonly WeaponMedalsTable[]) =>
  executeBatched(store.db, store.dialect, name, rows, (chunk) =>
    store.db
      .insertInto('weapon_medals')
      .values(chunk)
      .onConflict((oc) =>
        oc
          .columns(['platform', 'account_id', 'weapon_id', 'medal_id'])
          .doUpdateSet({ count: sql<number>`weapon_medals.count + excluded.count` }),
      )
      .returning(['account_id', 'count']),
  );

for (const database of testDatabases) {
  describe(`batched statements (${database.name})`, () => {
    test('every row of every chunk size is written with its own values and returned', async () => {
      const store = await database.open();
      try {
        // 1, 2, 3, 7 and 300 rows: chunks of every power of two up to 256, each size run twice.
        let next = 0;
        for (const size of [1, 2, 3, 7, 300, 7, 3]) {
          const rows = Array.from({ length: size }, (_, i) => medal(next + i, next + i + 1));
          const returned = await upsertMedals(store, 'medals-test', rows);
          // Sorted: a database may return the rows of a multi-row insert in any order.
          assert.deepEqual(
            returned.sort((a, b) => (a.account_id < b.account_id ? -1 : 1)),
            rows.map((row) => ({ account_id: row.account_id, count: row.count })),
          );
          next += size;
        }
        const stored = await store.db
          .selectFrom('weapon_medals')
          .select(['account_id', 'count'])
          .orderBy('account_id')
          .execute();
        assert.equal(stored.length, next);
        stored.forEach((row, i) =>
          assert.deepEqual(row, { account_id: medal(i, 0).account_id, count: i + 1 }),
        );

        // The upsert's SET list runs for rows already stored.
        await upsertMedals(store, 'medals-test', [medal(0, 5), medal(1, 5), medal(2, 5)]);
        const updated = await store.db
          .selectFrom('weapon_medals')
          .select('count')
          .where('account_id', 'in', [medal(0, 0).account_id, medal(2, 0).account_id])
          .orderBy('account_id')
          .execute();
        assert.deepEqual(updated, [{ count: 6 }, { count: 8 }]);
      } finally {
        await store.close();
      }
    });

    test('the thread serves what it was asked between the statements of a write', async () => {
      const store = await database.open();
      try {
        // 7 rows: chunks of 4, 2 and 1, three statements.
        const rows = Array.from({ length: 7 }, (_, i) => medal(i, 1));
        // Turns of the event loop while the write runs: better-sqlite3 runs each statement
        // synchronously, and without a pause between them none would come before the write is
        // done. PostgreSQL waits on its socket for every statement anyway.
        let turns = 0;
        let next = setImmediate(function turn() {
          turns++;
          next = setImmediate(turn);
        });
        await upsertMedals(store, 'medals-yield', rows);
        clearImmediate(next);
        assert.ok(turns >= 2, `the event loop turned ${turns} times during three statements`);
      } finally {
        await store.close();
      }
    });
  });
}
