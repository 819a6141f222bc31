import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { testDatabases } from '../helpers/stores.ts';
import { leaderboardEntries, rankPlayers } from '../../src/domain/ranking.ts';
import { type LeaderboardKey } from '../../src/store/leaderboards.ts';
import { listLeaderboardCandidates } from '../../src/store/leaderboard-candidates.ts';
import { rankLeaderboard } from '../../src/store/leaderboard-ranking.ts';
import type { Db, Store } from '../../src/store/store.ts';
import { ZERO_AGGREGATE } from '../helpers/leaderboard-boards.ts';

const KEY: LeaderboardKey = { platform: 'pc-b', seasonId: 'season-x', gameMode: 'squad' };
const REGIONS = ['pc-eu', 'pc-na', 'pc-as', ''];

/**
 * `count` players with varied aggregates for KEY, some of them twins (same aggregate: only the
 * account id breaks the tie), ids whose case makes byte order differ from a locale's order, and
 * damage in quarter points so every sum is exact in any order. Plus noise in another mode.
 */
async function seed(store: Store, count: number): Promise<void> {
  const players = [];
  const stats = [];
  for (let i = 0; i < count; i++) {
    const accountId = `account.${i % 3 === 0 ? 'A' : 'a'}${((i * 7919) % 1000).toString(16)}`;
    const twin = i % 5 === 0 ? 0 : i;
    const games = (twin * 13) % 40;
    const wins = Math.min(games, (twin * 3) % 5);
    players.push({
      platform: KEY.platform,
      account_id: accountId,
      name: `Player${i}`,
      ban_type: 'Innocent',
      clan_id: '',
      first_seen_at: 0,
      last_seen_at: 0,
      region: REGIONS[i % REGIONS.length]!,
    });
    for (const gameMode of [KEY.gameMode, 'duo']) {
      stats.push({
        ...ZERO_AGGREGATE,
        platform: KEY.platform,
        account_id: accountId,
        season_id: KEY.seasonId,
        game_mode: gameMode,
        rounds_played: games,
        wins,
        top10s: Math.min(games, wins + ((twin * 5) % 7)),
        kills: (twin * 11) % 60,
        damage_dealt: ((twin * 37) % 400) * 25.25,
        win_place_sum: games * (1 + ((twin * 17) % 50)),
        updated_at: 0,
      });
    }
  }
  await store.db.insertInto('players').values(players).execute();
  // The database gives each aggregate its player's region (migration 0015's triggers).
  await store.db.insertInto('season_stats').values(stats).execute();
}

for (const database of testDatabases) {
  test(`[${database.name}] the leaderboard SQL ranks exactly as the JS rule`, async () => {
    const store = await database.open();
    try {
      await seed(store, 120);
      const expected = leaderboardEntries(
        rankPlayers(await listLeaderboardCandidates(store.db, KEY)),
        20,
        8,
      );
      const { entries, candidates } = await rankLeaderboard(store, KEY, {
        size: 20,
        regionalSize: 8,
      });
      assert.equal(candidates, 120);
      assert.ok(expected.length > 20, 'regional entries beyond the platform top are kept');
      const shape = (entry: (typeof entries)[number]) => ({
        accountId: entry.player.accountId,
        region: entry.player.region,
        rank: entry.rank,
        rankPoints: entry.rankPoints,
        tier: `${entry.tier} ${entry.subTier}`,
        games: entry.player.games,
        damage: entry.player.damageDealt,
      });
      assert.deepEqual(entries.map(shape), expected.map(shape));
      for (const [i, entry] of entries.entries()) {
        assert.ok(Math.abs(entry.score - expected[i]!.score) < 1e-12, `score of rank ${i + 1}`);
      }
    } finally {
      await store.close();
    }
  });

  test(`[${database.name}] read in small pages, leaving out who cannot be kept, it ranks the same`, async () => {
    const store = await database.open();
    try {
      await seed(store, 120);
      const whole = await rankLeaderboard(store, KEY, { size: 20, regionalSize: 8 });
      // 120 candidates in pages of 7: every region's best fill up early, and later pages only
      // return who beats them.
      const paged = await rankLeaderboard(store, KEY, { size: 20, regionalSize: 8, perRead: 7 });
      assert.deepEqual(paged, whole);
      // One candidate a statement, the smallest boards: the bounds prune from the fourth read on.
      assert.deepEqual(
        await rankLeaderboard(store, KEY, {
          size: 3,
          regionalSize: 2,
          perRead: 1,
        }),
        await rankLeaderboard(store, KEY, { size: 3, regionalSize: 2 }),
      );
    } finally {
      await store.close();
    }
  });

  test(`[${database.name}] a mode nobody played ranks nobody`, async () => {
    const store = await database.open();
    try {
      assert.deepEqual(await rankLeaderboard(store, KEY), { entries: [], candidates: 0 });
    } finally {
      await store.close();
    }
  });

  if (database.name === 'postgres') {
    test('[postgres] a board reads on one connection without parallel workers or JIT, given back as it was', async () => {
      const store = await database.open();
      const settings = async (db: Db): Promise<string> => {
        const { rows } = await sql<{ workers: string; jit: string }>`SELECT
          current_setting('max_parallel_workers_per_gather') AS workers,
          current_setting('jit') AS jit`.execute(db);
        return `${rows[0]!.workers} ${rows[0]!.jit}`;
      };
      const serverProcess = async (db: Db): Promise<number> =>
        (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db)).rows[0]!.pid;
      try {
        const serial = store.withSerialConnection!;
        const before = await settings(store.db);
        assert.notEqual(before, '0 off');
        assert.equal(await serial(store.db, settings), '0 off');
        let failedOn = 0;
        await assert.rejects(
          serial(store.db, async (db) => {
            failedOn = await serverProcess(db);
            throw new Error('a failed read');
          }),
          /a failed read/,
        );
        // Several connections at once: the pool's idle ones (those used above) and new ones.
        const after = await Promise.all(
          [1, 2, 3].map(() =>
            store.db.connection().execute(async (db) => ({
              pid: await serverProcess(db),
              setting: await settings(db),
            })),
          ),
        );
        assert.deepEqual(
          after.map((connection) => connection.setting),
          [before, before, before],
        );
        assert.ok(
          after.some((connection) => connection.pid === failedOn),
          'the connection the failed work ran on went back to the pool and was checked',
        );
      } finally {
        await store.close();
      }
    });
  }
}
