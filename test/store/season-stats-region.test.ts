import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/store/store.ts';
import { sqliteStoreAt } from '../helpers/old-store.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { openIngestContext, type IngestTestContext } from '../helpers/ingest-deps.ts';
import { makeMatchInput, TEST_NOW } from '../helpers/matches.ts';
import { testDatabases } from '../helpers/stores.ts';
import {
  DAILY_STAT_COLUMNS,
  MAXED_STAT_COLUMNS,
  SUMMED_STAT_COLUMNS,
  WEEKLY_STAT_COLUMNS,
  type SeasonStatsValues,
} from '../../src/domain/stats.ts';

const HOUR = 3_600_000;

/** Every stat of an aggregate at zero. */
const ZERO_STATS = Object.fromEntries(
  [
    ...SUMMED_STAT_COLUMNS,
    ...MAXED_STAT_COLUMNS,
    ...DAILY_STAT_COLUMNS,
    ...WEEKLY_STAT_COLUMNS,
    'days',
    'last_day',
    'last_week',
  ].map((column) => [column, 0]),
) as unknown as SeasonStatsValues;

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

for (const database of testDatabases) {
  test(`[${database.name}] a region that another writer gives a player reaches their aggregates`, async () => {
    const ctx = await openIngestContext(database);
    try {
      await ingestMatch(ctx.deps, match('first', 5, 'pc-eu'));
      const db = ctx.deps.store.db;
      const moved = await db
        .selectFrom('players')
        .select(['platform', 'account_id'])
        .orderBy('account_id')
        .executeTakeFirstOrThrow();
      await db
        .updateTable('players')
        .set({ region: 'pc-kakao' })
        .where('platform', '=', moved.platform)
        .where('account_id', '=', moved.account_id)
        .execute();
      const rows = await db
        .selectFrom('season_stats')
        .select(['account_id', 'region'])
        .where('platform', '=', moved.platform)
        .execute();
      assert.ok(rows.some((row) => row.account_id === moved.account_id));
      for (const row of rows) {
        assert.equal(row.region, row.account_id === moved.account_id ? 'pc-kakao' : 'pc-eu');
      }
      assert.deepEqual(new Set(await regions(ctx)), new Set(['pc-kakao|pc-kakao', 'pc-eu|pc-eu']));
    } finally {
      await ctx.close();
    }
  });

  test(`[${database.name}] an aggregate inserted with another region than its player's takes the player's`, async () => {
    const store = await database.open();
    try {
      await store.db
        .insertInto('players')
        .values({
          platform: 'steam',
          account_id: 'account.a',
          name: 'a',
          region: 'pc-eu',
          ban_type: 'Innocent',
          clan_id: '',
          first_seen_at: 0,
          last_seen_at: 0,
        })
        .execute();
      const aggregate = (accountId: string, gameMode: string, region: string) => ({
        platform: 'steam',
        account_id: accountId,
        season_id: 'season-x',
        game_mode: gameMode,
        ...ZERO_STATS,
        updated_at: 0,
        region,
      });
      await store.db
        .insertInto('season_stats')
        .values([
          aggregate('account.a', 'solo', 'pc-na'),
          aggregate('account.a', 'duo', 'pc-eu'),
          aggregate('account.nobody', 'solo', 'pc-na'),
        ])
        .execute();
      const stored = () =>
        store.db
          .selectFrom('season_stats')
          .select(['account_id', 'game_mode', 'region'])
          .orderBy('account_id')
          .orderBy('game_mode')
          .execute()
          .then((rows) => rows.map((r) => `${r.account_id} ${r.game_mode} ${r.region}`));
      assert.deepEqual(await stored(), [
        'account.a duo pc-eu',
        'account.a solo pc-eu',
        'account.nobody solo ',
      ]);
    } finally {
      await store.close();
    }
  });
}

test("aggregates stored before the region was kept beside them get their player's (migration 0015)", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-region-'));
  const file = path.join(dir, 'old.sqlite');
  try {
    const old = await sqliteStoreAt(file, '0014-player-matches-one-index');
    const player = (id: string, region: string) => ({
      platform: 'pc-b',
      account_id: id,
      name: id,
      ban_type: 'Innocent',
      clan_id: '',
      first_seen_at: 0,
      last_seen_at: 0,
      region,
    });
    await old
      .insertInto('players')
      .values([player('account.a', 'pc-eu'), player('account.b', 'pc-na')])
      .execute();
    const aggregate = (id: string, gameMode: string) => ({
      platform: 'pc-b',
      account_id: id,
      season_id: 'season-x',
      game_mode: gameMode,
      updated_at: 0,
    });
    await old
      .insertInto('season_stats')
      .values([
        aggregate('account.a', 'solo'),
        aggregate('account.a', 'duo'),
        aggregate('account.b', 'solo'),
        aggregate('account.orphan', 'solo'),
      ])
      .execute();
    await old.destroy();

    const store = await openStore(`sqlite:${file}`);
    try {
      const rows = await store.db
        .selectFrom('season_stats')
        .select(['account_id', 'game_mode', 'region'])
        .orderBy('account_id')
        .orderBy('game_mode')
        .execute();
      assert.deepEqual(
        rows.map((row) => `${row.account_id} ${row.game_mode} ${row.region}`),
        [
          'account.a duo pc-eu',
          'account.a solo pc-eu',
          'account.b solo pc-na',
          'account.orphan solo ',
        ],
      );
    } finally {
      await store.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
