import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { JOBS, findJob } from '../../src/jobs/index.ts';
import {
  leaderboardsMissing,
  rebuildLeaderboards,
  rebuildLeaderboardsJob,
} from '../../src/jobs/rebuild-leaderboards.ts';
import { isJobDue, runJobOnce } from '../../src/jobs/scheduler.ts';
import { rankPlayers } from '../../src/domain/ranking.ts';
import { listLeaderboardCandidates } from '../../src/store/leaderboard-candidates.ts';

const MINUTE = 60_000;
const CURRENT_SEASON = 'division.bro.official.pc-2018-45';
const NEXT_SEASON = 'division.bro.official.pc-2018-46';
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Ingests `count` pc-b duo matches of the same twelve players, each won by a different team. */
async function playDuos(t: TestApp, count: number): Promise<void> {
  for (let m = 0; m < count; m++) {
    await ingestMatch(
      t,
      makeMatchInput({
        seed: `duo-${m}`,
        rosters: 6,
        playersPerRoster: 2,
        winner: m % 6,
        player: (seat) => ({ playerId: accountId(`duo-${seat.index}`), name: `Duo${seat.index}` }),
        stats: (seat) => ({ kills: (seat.index + m) % 4 }),
        overrides: {
          createdAt: iso(t.clock.now() - (count - m) * 40 * MINUTE),
          regionShard: seatRegion(m),
        },
      }),
    );
  }
}

/** The newest match decides a player's region: the last duo is played in pc-na. */
const seatRegion = (m: number): 'pc-eu' | 'pc-na' => (m === 4 ? 'pc-na' : 'pc-eu');

async function entriesOf(t: TestApp, leaderboardId: string) {
  return t.store.db
    .selectFrom('leaderboard_entries')
    .selectAll()
    .where('leaderboard_id', '=', leaderboardId)
    .orderBy('rank')
    .execute();
}

async function buildOf(t: TestApp, platform: string, gameMode: string) {
  return t.store.db
    .selectFrom('leaderboards')
    .selectAll()
    .where('platform', '=', platform)
    .where('game_mode', '=', gameMode)
    .execute();
}

for (const database of testDatabases) {
  test(`[${database.name}] the job ranks the current season's players and replaces the previous build`, async () => {
    const t = await createTestApp(database);
    try {
      await playDuos(t, 5);
      const summary = await rebuildLeaderboards(t);
      assert.deepEqual(summary.seasons, [
        { platform: 'pc-a', seasonId: CURRENT_SEASON },
        { platform: 'pc-b', seasonId: CURRENT_SEASON },
      ]);
      assert.equal(summary.builds, 12, 'two PC platforms × six modes, empty ones too');
      assert.equal(summary.candidates, 12);
      assert.equal(summary.entries, 12);

      const [first] = await buildOf(t, 'pc-b', 'duo');
      assert.ok(first);
      assert.equal(first.season_id, CURRENT_SEASON);
      assert.equal(first.built_at, t.clock.now());
      assert.equal(first.expires_at, t.clock.now() + 120 * MINUTE);
      assert.match(
        first.id,
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );

      const entries = await entriesOf(t, first.id);
      const candidates = await listLeaderboardCandidates(t.store.db, {
        platform: 'pc-b',
        seasonId: CURRENT_SEASON,
        gameMode: 'duo',
      });
      assert.deepEqual(
        entries.map((e) => [e.rank, e.account_id, e.rank_points, e.tier, e.sub_tier]),
        rankPlayers(candidates).map((r) => [
          r.rank,
          r.player.accountId,
          r.rankPoints,
          r.tier,
          r.subTier,
        ]),
        'stored in the order and with the points of the ranking',
      );
      const top = entries[0]!;
      const seat = Array.from({ length: 12 }, (_, i) => i).find(
        (i) => accountId(`duo-${i}`) === top.account_id,
      );
      assert.equal(top.name, `Duo${seat}`, "the player's current name");
      assert.equal(top.games, 5);
      for (const entry of entries)
        assert.equal(entry.region, 'pc-na', 'the region of the newest match');
      assert.equal((await buildOf(t, 'pc-a', 'duo'))[0]?.season_id, CURRENT_SEASON);
      assert.equal((await entriesOf(t, (await buildOf(t, 'pc-a', 'duo'))[0]!.id)).length, 0);

      t.clock.advance(121 * MINUTE);
      await playDuos(t, 1);
      await rebuildLeaderboards(t);
      const [second] = await buildOf(t, 'pc-b', 'duo');
      assert.ok(second);
      assert.notEqual(second.id, first.id, 'a rebuild has a new id');
      assert.equal((await entriesOf(t, first.id)).length, 0, 'the old entries are gone');
      assert.equal((await entriesOf(t, second.id)).length, 12);
      const { n } = await t.store.db
        .selectFrom('leaderboards')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(n), 12, 'one build per platform and mode');
    } finally {
      await t.close();
    }
  });

  test(`[${database.name}] output is missing before the first build and when a new season starts`, async () => {
    const t = await createTestApp(database);
    try {
      assert.equal(await leaderboardsMissing(t), true, 'never built');
      assert.equal(await isJobDue(t, rebuildLeaderboardsJob), true);
      const result = await runJobOnce(t, rebuildLeaderboardsJob, 'test');
      assert.ok(
        'summary' in result && /^built 12 leaderboards/.test(result.summary),
        JSON.stringify(result),
      );
      assert.equal(await leaderboardsMissing(t), false);
      assert.equal(await isJobDue(t, rebuildLeaderboardsJob), false);

      // One mode's build missing is enough.
      const [squad] = await buildOf(t, 'pc-a', 'squad');
      await t.store.db.deleteFrom('leaderboards').where('id', '=', squad!.id).execute();
      assert.equal(await leaderboardsMissing(t), true);
      await rebuildLeaderboards(t);

      t.clock.set('2026-12-28T00:00:00Z');
      assert.equal(await leaderboardsMissing(t), true, 'the builds are of the season before');
      await rebuildLeaderboards(t);
      assert.equal(await leaderboardsMissing(t), false);
      const seasons = await t.store.db
        .selectFrom('leaderboards')
        .select('season_id')
        .distinct()
        .execute();
      assert.deepEqual(
        seasons,
        [{ season_id: NEXT_SEASON }],
        'the earlier season builds are replaced',
      );
    } finally {
      await t.close();
    }
  });

  test(`[${database.name}] the job is scheduled under its name at the configured interval`, async () => {
    const t = await createTestApp(database, { LEADERBOARD_INTERVAL_MINUTES: '30' });
    try {
      assert.equal(findJob('leaderboards'), rebuildLeaderboardsJob);
      assert.ok(JOBS.includes(rebuildLeaderboardsJob));
      assert.equal(rebuildLeaderboardsJob.intervalMs(t.config), 30 * MINUTE);
      await rebuildLeaderboards(t);
      const [build] = await buildOf(t, 'pc-b', 'squad');
      assert.equal(build!.expires_at - build!.built_at, 30 * MINUTE);
    } finally {
      await t.close();
    }
  });
}
