import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { openIngestContext, type IngestTestContext } from '../helpers/ingest-deps.ts';
import { makeMatchInput, TEST_NOW } from '../helpers/matches.ts';
import { testDatabases } from '../helpers/stores.ts';

const HOUR = 3_600_000;

/** A match of the same four players, played `hoursAgo` in `region`. */
const match = (seed: string, hoursAgo: number, region: string, custom = false) =>
  makeMatchInput({
    seed,
    overrides: {
      createdAt: new Date(TEST_NOW - hoursAgo * HOUR).toISOString(),
      regionShard: region,
      isCustomMatch: custom,
    },
  });

/** Every aggregate's region, and its player's, as `region|player region` strings. */
async function regions(ctx: IngestTestContext): Promise<string[]> {
  const rows = await ctx.deps.store.db
    .selectFrom('season_stats as s')
    .innerJoin('players as p', (join) =>
      join.onRef('p.platform', '=', 's.platform').onRef('p.account_id', '=', 's.account_id'),
    )
    .select(['s.region as stored', 'p.region as player'])
    .execute();
  return rows.map((row) => `${row.stored}|${row.player}`);
}

for (const database of testDatabases) {
  test(`[${database.name}] every aggregate carries its player's region, as the newest match sets it`, async () => {
    const ctx = await openIngestContext(database);
    try {
      await ingestMatch(ctx.deps, match('first', 5, 'pc-eu'));
      const first = await regions(ctx);
      assert.ok(first.length >= 4, 'aggregates were written');
      assert.deepEqual(new Set(first), new Set(['pc-eu|pc-eu']));

      // A newer custom match adds no aggregate but moves the players: every aggregate follows.
      await ingestMatch(ctx.deps, match('custom', 1, 'pc-na', true));
      const moved = await regions(ctx);
      assert.equal(moved.length, first.length, 'the custom match added no aggregate');
      assert.deepEqual(new Set(moved), new Set(['pc-na|pc-na']));

      // An older match ingested late adds to the aggregates but leaves the region alone.
      await ingestMatch(ctx.deps, match('late', 3, 'pc-as'));
      assert.deepEqual(new Set(await regions(ctx)), new Set(['pc-na|pc-na']));
    } finally {
      await ctx.close();
    }
  });
}
