import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { addPlayerTwins } from '../../src/demo/add-player-twins.ts';
import { rebuildLeaderboards } from '../../src/jobs/rebuild-leaderboards.ts';
import { jobState } from '../../src/store/job-locks.ts';
import { TWIN_ID_PREFIX, twinAccountId, twinName } from '../../src/store/player-twins.ts';
import type { Db } from '../../src/store/store.ts';

const MINUTE = 60_000;
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A player's rows of a table without the account id, in a stable order. */
async function rowsOf(db: Db, table: 'season_stats' | 'player_matches', id: string) {
  const rows = await db.selectFrom(table).selectAll().where('account_id', '=', id).execute();
  return rows
    .map(({ account_id: _, ...rest }) => JSON.stringify(rest, Object.keys(rest).sort()))
    .sort();
}

for (const database of testDatabases) {
  test(`[${database.name}] twins grow the store to n players, each a consistent copy of a player`, async () => {
    const t = await createTestApp(database);
    try {
      for (let m = 0; m < 3; m++) {
        await ingestMatch(
          t,
          makeMatchInput({
            seed: `twins-${m}`,
            rosters: 4,
            playersPerRoster: 2,
            winner: m,
            player: (seat) => ({
              playerId: accountId(`tw-${seat.index}`),
              name: `Tw${seat.index}`,
            }),
            overrides: { createdAt: iso(t.clock.now() - (3 - m) * 40 * MINUTE) },
          }),
        );
      }
      const before = await t.store.db.selectFrom('players').select('account_id').execute();
      const templates = before.length;
      assert.equal(templates, 8);

      // In two steps, the second resuming from a count that is not a whole round.
      const first = await addPlayerTwins(t.store, 8 + 13);
      assert.deepEqual([first.before, first.after, first.templates], [8, 21, 8]);
      const second = await addPlayerTwins(t.store, 8 + 50);
      assert.deepEqual([second.before, second.after], [21, 58]);
      assert.equal((await addPlayerTwins(t.store, 40)).after, 58, 'never shrinks');
      if (database.name === 'postgres') {
        // Settled as autovacuum would leave them: index-only scans need not read the table.
        const { rows } = await sql<{ relname: string }>`SELECT relname FROM pg_stat_user_tables
          WHERE schemaname = current_schema() AND last_vacuum IS NOT NULL
            AND last_analyze IS NOT NULL ORDER BY relname`.execute(t.store.db);
        assert.deepEqual(
          rows.map((row) => row.relname),
          ['player_matches', 'players', 'season_stats'],
        );
      }

      const twins = await t.store.db
        .selectFrom('players')
        .selectAll()
        .where('account_id', 'like', `${TWIN_ID_PREFIX}%`)
        .orderBy('account_id')
        .execute();
      assert.deepEqual(
        twins.map((twin) => twin.account_id),
        Array.from({ length: 50 }, (_, i) => twinAccountId(i)),
      );
      for (const [i, twin] of twins.entries()) {
        assert.match(twin.account_id, /^account\.[0-9a-f]{32}$/);
        assert.equal(twin.name, twinName(i));
      }
      // Twin i copies template i mod 8 (templates in platform, account id order).
      const sorted = before.map((row) => row.account_id).sort();
      for (const i of [0, 7, 8, 20, 49]) {
        const template: string = sorted[i % templates]!;
        for (const table of ['season_stats', 'player_matches'] as const) {
          const copied = await rowsOf(t.store.db, table, twinAccountId(i));
          assert.ok(copied.length > 0, `${table} of twin ${i}`);
          assert.deepEqual(
            copied,
            await rowsOf(t.store.db, table, template),
            `${table} of twin ${i}`,
          );
        }
      }
      const rebuild = await jobState(t.store.db, 'leaderboards');
      assert.equal(rebuild?.rebuildRequested, true, 'the derived data is rebuilt after growing');

      // What the API reads of a player is there: the player and their matches.
      const response = await t.app.inject({
        url: `/shards/pc-b/players/${twinAccountId(20)}`,
        headers: t.auth,
      });
      assert.equal(response.statusCode, 200, response.body);
      const player = response.json() as {
        data: { attributes: { name: string }; relationships: { matches: { data: unknown[] } } };
      };
      assert.equal(player.data.attributes.name, twinName(20));
      assert.equal(player.data.relationships.matches.data.length, 3);
      const summary = await rebuildLeaderboards(t);
      assert.equal(summary.candidates, 58);
    } finally {
      await t.close();
    }
  });
}
