import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from './helpers/stores.ts';
import { syncSeasons, listSeasons } from '../src/store/seasons.ts';
import { seasonAt } from '../src/domain/seasons.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');

for (const database of testDatabases) {
  test(`[${database.name}] seasons sync is idempotent and keeps catalogue order`, async () => {
    const store = await database.open();
    try {
      await syncSeasons(store, NOW);
      await syncSeasons(store, NOW);
      const seasons = await listSeasons(store.db, 'pc-b');
      assert.equal(seasons[0]?.id, 'division.bro.official.2017-beta');
      assert.equal(new Set(seasons.map((s) => s.id)).size, seasons.length);
      const current = seasonAt(seasons, NOW);
      assert.match(current!.id, /^division\.bro\.official\.pc-2018-\d\d$/);
    } finally {
      await store.close();
    }
  });
}
