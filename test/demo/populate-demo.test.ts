import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { populateDemo } from '../../src/demo/populate-demo.ts';
import type { Store } from '../../src/store/store.ts';
import { withDemoDeps } from '../helpers/demo-deps.ts';
import { testDatabases } from '../helpers/stores.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');

async function rows(
  store: Store,
  table: 'matches' | 'players' | 'participants' | 'tournaments',
): Promise<number> {
  const { n } = await store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

function files(dir: string): number {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .length;
}

for (const database of testDatabases) {
  test(`${database.name}: the demo goes in through ingest, and a second run changes nothing`, async () => {
    const store = await database.open();
    await withDemoDeps(store, NOW, async (deps, dir) => {
      const options = { seed: 5, scale: 0.02, now: NOW, progress: false };
      const first = await populateDemo(deps, options);
      assert.ok(first.matches >= 30, `${first.matches} matches`);
      assert.equal(first.ingested, first.matches);
      assert.equal(first.duplicates, 0);
      assert.ok(first.players > 300);
      assert.equal(await rows(store, 'matches'), first.matches);
      assert.equal(files(dir), first.matches, 'one telemetry file per match');
      assert.ok((await rows(store, 'tournaments')) >= 1);
      const before = {
        players: await rows(store, 'players'),
        participants: await rows(store, 'participants'),
      };

      const second = await populateDemo(deps, options);
      assert.deepEqual(
        { ...second, ms: 0 },
        { ...first, ingested: 0, duplicates: first.matches, ms: 0 },
      );
      assert.equal(await rows(store, 'matches'), first.matches);
      assert.deepEqual(
        { players: await rows(store, 'players'), participants: await rows(store, 'participants') },
        before,
      );
      assert.equal(files(dir), first.matches);
    });
  });
}
