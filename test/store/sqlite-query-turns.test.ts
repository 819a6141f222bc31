import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openStore } from '../../src/store/store.ts';
import { TURN_MS } from '../../src/store/sqlite/query-turns.ts';

/** A read that costs SQLite some work: counting to `n` in a recursive CTE. */
const countTo = (n: number) =>
  sql<{ n: number }>`with recursive c(i) as (select 1 union all select i + 1 from c where i < ${n})
    select count(*) as n from c`;

test('a burst of SQLite reads leaves turns of the event loop to what else the thread was asked', async () => {
  const store = await openStore('sqlite::memory:');
  try {
    // How long one read takes here, so the burst surely outlasts a turn's share many times.
    const started = performance.now();
    for (let i = 0; i < 20; i++) await countTo(2_000).execute(store.db);
    const perRead = (performance.now() - started) / 20;
    const reads = Math.max(40, Math.ceil((20 * TURN_MS) / perRead));

    // Every read starts at once, as requests for documents a purge dropped would. Without turns
    // better-sqlite3 runs them back to back in microtasks, and the immediate below would find
    // them all done; here it comes once a turn's share is spent.
    let done = 0;
    const burst = Promise.all(
      Array.from({ length: reads }, async () => {
        const { rows } = await countTo(2_000).execute(store.db);
        assert.equal(rows[0]!.n, 2_000);
        done++;
      }),
    );
    const doneAtFirstTurn = await new Promise<number>((resolve) =>
      setImmediate(() => resolve(done)),
    );
    await burst;
    assert.equal(done, reads);
    assert.ok(
      doneAtFirstTurn < reads / 2,
      `${doneAtFirstTurn} of ${reads} reads (${perRead.toFixed(2)} ms each) ran before the next turn`,
    );
  } finally {
    await store.close();
  }
});

test('a read alone, and reads within a transaction, run and return as before', async () => {
  const store = await openStore('sqlite::memory:');
  try {
    const { rows } = await countTo(3).execute(store.db);
    assert.deepEqual(rows, [{ n: 3 }]);
    // A transaction's statements keep their connection across the turns they may wait for.
    const sums = await store.db.transaction().execute(async (trx) => {
      const out: number[] = [];
      for (let i = 1; i <= 50; i++) out.push((await countTo(i * 50).execute(trx)).rows[0]!.n);
      return out;
    });
    assert.deepEqual(
      sums,
      Array.from({ length: 50 }, (_, i) => (i + 1) * 50),
    );
  } finally {
    await store.close();
  }
});
