import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { InsertQueryNode, type KyselyPlugin } from 'kysely';
import { IngestError, ingestMatch } from '../../src/ingest/ingest-match.ts';
import type { MatchInput } from '../../src/ingest/match-input.ts';
import {
  mergeSeasonStats,
  seasonStatsIncrement,
  type SeasonStatsValues,
} from '../../src/domain/stats.ts';
import { dayNumber } from '../../src/domain/time.ts';
import { findMatchMembers, findMatchRecord } from '../../src/store/match-documents.ts';
import { testDatabases } from '../helpers/stores.ts';
import { openIngestContext } from '../helpers/ingest-deps.ts';
import { accountId, makeMatchInput, participantsOf, TEST_NOW } from '../helpers/matches.ts';

const CURRENT_SEASON = 'division.bro.official.pc-2018-45';
const DAY = 86_400_000;
const at = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
const byteOrder = (keys: readonly string[]): string[] =>
  [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

for (const database of testDatabases) {
  const name = (title: string): string => `[${database.name}] ${title}`;

  test(
    name('ingest stores the match, its rosters, participants, players and telemetry'),
    async () => {
      const ctx = await openIngestContext(database);
      try {
        const input = makeMatchInput({
          rosters: 3,
          playersPerRoster: 2,
          telemetry: true,
          player: (seat) => (seat.index === 5 ? { playerId: 'ai.17', name: 'Bot17' } : {}),
        });
        const result = await ingestMatch(ctx.deps, input);
        assert.deepEqual(result, {
          status: 'ingested',
          matchId: input.id,
          platform: 'pc-b',
          telemetry: true,
        });

        // Its rosters and participants are kept in its rendered document, not as rows.
        const counts = await ctx.rowCounts();
        assert.deepEqual(counts, {
          matches: 1,
          rosters: 0,
          participants: 0,
          players: 5,
          player_matches: 5,
          season_stats: 10,
          stat_days: 10,
          tournaments: 0,
          match_documents: 1,
        });

        const db = ctx.deps.store.db;
        const match = await db.selectFrom('matches').selectAll().executeTakeFirstOrThrow();
        assert.equal(match.platform, 'pc-b');
        assert.equal(match.region, 'pc-eu');
        assert.equal(match.season_id, CURRENT_SEASON);
        assert.equal(match.created_at, Date.parse(input.createdAt));
        assert.equal(match.asset_created_at, Date.parse(input.createdAt) + 1800_000 + 120_000);
        assert.match(
          match.asset_id,
          /^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        );
        assert.equal(
          match.telemetry_key,
          `bluehole-pubg/pc-b/2026/11/20/12/32/${match.asset_id}-telemetry.json`,
          'the blob key is the telemetry URL’s path',
        );

        const members = await findMatchMembers(db, input.id, 'pc-b');
        assert.deepEqual(
          members.rosters.map((r) => [r.rank, r.won, r.teamId, r.participantIds.length]),
          [
            [1, true, 1, 2],
            [2, false, 2, 2],
            [3, false, 3, 2],
          ],
        );
        assert.deepEqual(
          members.participants.map((p) => p.playerId),
          participantsOf(input).map((p) => p.playerId),
        );
        assert.deepEqual(
          members.participants.map((p) => p.rosterId),
          members.rosters.flatMap((r) => r.participantIds.map(() => r.id)),
        );
        assert.ok(members.participants.every((p) => p.platform === 'pc-b'));
        const record = await findMatchRecord(db, input.id);
        const stats = JSON.parse(record!.participants[0]!.statsJson) as Record<string, unknown>;
        assert.equal(Object.keys(stats).length, 23);
        assert.deepEqual(Object.keys(stats), byteOrder(Object.keys(stats)));
        assert.equal(stats.name, 'Player0');
        assert.equal(stats.playerId, accountId(0));
        assert.equal(stats.damageDealt, 100);

        const listed = await db.selectFrom('player_matches').select('account_id').execute();
        assert.ok(
          !listed.some((row) => row.account_id.startsWith('ai.')),
          'bots get no match list',
        );

        assert.deepEqual(ctx.blobs(), [match.telemetry_key]);
        const telemetry = zlib.gunzipSync(
          fs.readFileSync(path.join(ctx.blobDir, match.telemetry_key!)),
        );
        assert.ok(!telemetry.includes('\n'), 'one line');
        assert.deepEqual(JSON.parse(telemetry.toString()), input.telemetry);
      } finally {
        await ctx.close();
      }
    },
  );

  test(name('season stats add up to the ingested matches'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const matches = [3, 2, 1].map((daysAgo, i) =>
        makeMatchInput({
          seed: `sum-${i}`,
          winner: i % 2,
          stats: (seat) => ({ kills: seat.index + i, longestKill: 20 * (i + 1) + seat.index }),
          overrides: { createdAt: at(TEST_NOW - daysAgo * DAY) },
        }),
      );
      for (const match of matches) await ingestMatch(ctx.deps, match);

      const player = accountId(0);
      const mine = matches.map((m) => ({ p: participantsOf(m)[0]!, won: m.rosters[0]!.won }));
      const row = await ctx.deps.store.db
        .selectFrom('season_stats')
        .selectAll()
        .where('account_id', '=', player)
        .where('season_id', '=', CURRENT_SEASON)
        .executeTakeFirstOrThrow();
      assert.equal(row.game_mode, 'duo');
      assert.equal(
        row.kills,
        mine.reduce((sum, m) => sum + m.p.stats.kills, 0),
      );
      assert.equal(row.kills, 0 + 1 + 2);
      assert.equal(row.rounds_played, 3);
      assert.equal(row.wins, mine.filter((m) => m.won).length);
      assert.equal(row.wins + row.losses, 3);
      assert.equal(
        row.damage_dealt,
        mine.reduce((sum, m) => sum + m.p.stats.damageDealt, 0),
      );
      assert.equal(row.longest_kill, 60);
      assert.equal(row.days, 3);
      assert.equal(row.daily_kills, 2, 'kills on the day of the newest match');
      assert.equal(row.last_day, dayNumber(TEST_NOW - DAY));

      const lifetime = await ctx.deps.store.db
        .selectFrom('season_stats')
        .selectAll()
        .where('account_id', '=', player)
        .where('season_id', '=', 'lifetime')
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        { ...lifetime, season_id: CURRENT_SEASON, updated_at: 0 },
        { ...row, updated_at: 0 },
        'the lifetime row counts the same matches',
      );
    } finally {
      await ctx.close();
    }
  });

  test(name('the SQL upsert merges exactly as mergeSeasonStats, in any ingest order'), async () => {
    const ctx = await openIngestContext(database);
    try {
      // Two weeks of matches ingested out of order: restarts and ignores of daily/weekly stats.
      const offsets = [9, 2, 10, 2.5, 1, 8];
      const matches = offsets.map((daysAgo, i) =>
        makeMatchInput({
          seed: `order-${i}`,
          winner: i % 2,
          stats: (seat) => ({ kills: (seat.index * 3 + i) % 7, timeSurvived: 500 + i * 33.5 }),
          overrides: { createdAt: at(TEST_NOW - daysAgo * DAY) },
        }),
      );
      const expected = new Map<string, SeasonStatsValues>();
      const days = new Map<string, Set<number>>();
      for (const match of matches) {
        await ingestMatch(ctx.deps, match);
        match.rosters.forEach((roster) => {
          for (const p of roster.participants) {
            const inc = seasonStatsIncrement(p.stats, roster.won, Date.parse(match.createdAt));
            const seen = days.get(p.playerId) ?? new Set<number>();
            const newDay = !seen.has(inc.last_day);
            seen.add(inc.last_day);
            days.set(p.playerId, seen);
            expected.set(p.playerId, mergeSeasonStats(expected.get(p.playerId), inc, newDay));
          }
        });
      }
      const rows = await ctx.deps.store.db
        .selectFrom('season_stats')
        .selectAll()
        .where('season_id', '=', CURRENT_SEASON)
        .execute();
      assert.equal(rows.length, expected.size);
      for (const row of rows) {
        const want = expected.get(row.account_id)!;
        for (const [column, value] of Object.entries(want)) {
          assert.ok(
            Math.abs(Number(row[column as keyof typeof row]) - value) < 1e-9,
            `${row.account_id} ${column}: ${String(row[column as keyof typeof row])} ≠ ${value}`,
          );
        }
      }
    } finally {
      await ctx.close();
    }
  });

  test(name('custom matches are in player match lists but not in season stats'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const custom = makeMatchInput({
        seed: 'custom',
        overrides: { isCustomMatch: true, matchType: 'custom', gameMode: 'normal-duo' },
      });
      const customStandardMode = makeMatchInput({
        seed: 'custom-duo',
        overrides: { isCustomMatch: true, matchType: 'custom' },
      });
      await ingestMatch(ctx.deps, custom);
      await ingestMatch(ctx.deps, customStandardMode);
      const counts = await ctx.rowCounts();
      assert.equal(counts.season_stats, 0);
      assert.equal(counts.stat_days, 0);
      assert.equal(counts.player_matches, 8);
      const listed = await ctx.deps.store.db
        .selectFrom('player_matches')
        .select(['is_custom'])
        .where('account_id', '=', accountId(0))
        .execute();
      assert.deepEqual(
        listed.map((r) => r.is_custom),
        [1, 1],
      );
    } finally {
      await ctx.close();
    }
  });

  test(name('ingesting the same match again changes nothing'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const input = makeMatchInput({ telemetry: true });
      await ingestMatch(ctx.deps, input);
      const counts = await ctx.rowCounts();
      const stats = await ctx.deps.store.db
        .selectFrom('season_stats')
        .selectAll()
        .orderBy('account_id')
        .orderBy('season_id')
        .execute();
      const blobs = ctx.blobs();
      ctx.deps.clock.advance(3_600_000);
      const again = await ingestMatch(ctx.deps, { ...input, rosters: input.rosters.slice(0, 1) });
      assert.deepEqual(again, {
        status: 'unchanged',
        matchId: input.id,
        platform: 'pc-b',
        telemetry: true,
      });
      assert.deepEqual(await ctx.rowCounts(), counts);
      assert.deepEqual(
        await ctx.deps.store.db
          .selectFrom('season_stats')
          .selectAll()
          .orderBy('account_id')
          .orderBy('season_id')
          .execute(),
        stats,
      );
      assert.deepEqual(ctx.blobs(), blobs);
    } finally {
      await ctx.close();
    }
  });

  const invalid: Array<[string, (m: MatchInput) => unknown, string, RegExp?]> = [
    [
      'a count that is not an integer',
      (m) => {
        (m.rosters[1]!.participants[0]!.stats as unknown as Record<string, unknown>).kills = '3';
        return m;
      },
      'rosters/1/participants/0/stats/kills',
      /integer/,
    ],
    [
      'a region of another platform',
      (m) => ({ ...m, platformShard: 'console-a' }),
      'regionShard',
      /pc-eu/,
    ],
    [
      'a player twice',
      (m) => {
        m.rosters[1]!.participants[1]!.playerId = m.rosters[0]!.participants[0]!.playerId;
        return m;
      },
      'rosters/1/participants/1/playerId',
      /twice/,
    ],
    [
      'a roster id twice',
      (m) => {
        m.rosters[0]!.id = '5a0d4b1e-8c1f-4f5e-9a7b-2c3d4e5f6a7b';
        m.rosters[1]!.id = '5A0D4B1E-8C1F-4F5E-9A7B-2C3D4E5F6A7B';
        return m;
      },
      'rosters/1/id',
    ],
    [
      'a createdAt in the future',
      (m) => ({ ...m, createdAt: at(TEST_NOW + 3_600_000) }),
      'createdAt',
      /future/,
    ],
    [
      'a match older than the retention window',
      (m) => ({ ...m, createdAt: at(TEST_NOW - 15 * DAY) }),
      'createdAt',
      /retention/,
    ],
    [
      'a missing required field',
      (m) => {
        const copy: Partial<MatchInput> = { ...m };
        delete copy.mapName;
        return copy;
      },
      'mapName',
    ],
    ['an unknown field', (m) => ({ ...m, winner: 'me' }), 'winner'],
    ['an empty roster list', (m) => ({ ...m, rosters: [] }), 'rosters'],
    ['not an object', () => 'match', ''],
  ];
  for (const [title, mutate, field, message] of invalid) {
    test(name(`refuses ${title}, naming ${field || 'the match'}, storing nothing`), async () => {
      const ctx = await openIngestContext(database);
      try {
        const input = mutate(makeMatchInput({ rosters: 2, playersPerRoster: 2, telemetry: true }));
        await assert.rejects(ingestMatch(ctx.deps, input), (error: unknown) => {
          assert.ok(error instanceof IngestError, String(error));
          assert.equal(error.field, field);
          assert.ok(error.message.startsWith(`${field || 'match'}: `), error.message);
          if (message) assert.match(error.message, message);
          return true;
        });
        const counts = await ctx.rowCounts();
        assert.deepEqual(
          Object.values(counts),
          Object.values(counts).map(() => 0),
          JSON.stringify(counts),
        );
        assert.deepEqual(ctx.blobs(), []);
      } finally {
        await ctx.close();
      }
    });
  }

  test(
    name('a database failure mid-transaction leaves no rows and no telemetry file'),
    async () => {
      const ctx = await openIngestContext(database);
      try {
        const failing: KyselyPlugin = {
          transformQuery(args) {
            if (
              InsertQueryNode.is(args.node) &&
              args.node.into?.table.identifier.name === 'match_documents'
            ) {
              throw new Error('disk full');
            }
            return args.node;
          },
          transformResult: async (args) => args.result,
        };
        const deps = {
          ...ctx.deps,
          store: { ...ctx.deps.store, db: ctx.deps.store.db.withPlugin(failing) },
        };
        await assert.rejects(ingestMatch(deps, makeMatchInput({ telemetry: true })), /disk full/);
        const counts = await ctx.rowCounts();
        assert.deepEqual(
          Object.values(counts),
          Object.values(counts).map(() => 0),
          JSON.stringify(counts),
        );
        assert.deepEqual(ctx.blobs(), []);
      } finally {
        await ctx.close();
      }
    },
  );

  test(
    name('a player keeps the name of their newest match, whatever the ingest order'),
    async () => {
      const ctx = await openIngestContext(database);
      try {
        const named = (seed: string, daysAgo: number, playerName: string) =>
          makeMatchInput({
            seed,
            player: (seat) => (seat.index === 0 ? { name: playerName } : {}),
            overrides: {
              createdAt: at(TEST_NOW - daysAgo * DAY),
              regionShard: daysAgo === 2 ? 'pc-na' : 'pc-eu',
            },
          });
        const player = () =>
          ctx.deps.store.db
            .selectFrom('players')
            .selectAll()
            .where('account_id', '=', accountId(0))
            .executeTakeFirstOrThrow();

        await ingestMatch(ctx.deps, named('newer', 2, 'Renamed'));
        await ingestMatch(ctx.deps, named('older', 5, 'Original'));
        let row = await player();
        assert.equal(row.name, 'Renamed', 'an older match ingested later keeps the newer name');
        assert.equal(row.region, 'pc-na');
        assert.equal(row.last_seen_at, TEST_NOW - 2 * DAY);
        assert.equal(row.first_seen_at, TEST_NOW - 5 * DAY);

        await ingestMatch(ctx.deps, named('newest', 1, 'Latest'));
        row = await player();
        assert.equal(row.name, 'Latest');
        assert.equal(row.region, 'pc-eu');
        assert.equal(row.last_seen_at, TEST_NOW - DAY);
      } finally {
        await ctx.close();
      }
    },
  );

  test(
    name('the retention window and clock skew bound createdAt, just inside accepted'),
    async () => {
      const ctx = await openIngestContext(database);
      try {
        const edge = (seed: string, createdAt: number) =>
          ingestMatch(ctx.deps, makeMatchInput({ seed, overrides: { createdAt: at(createdAt) } }));
        assert.equal((await edge('inside', TEST_NOW - 14 * DAY + 1000)).status, 'ingested');
        await assert.rejects(edge('outside', TEST_NOW - 14 * DAY - 1000), /retention/);
        assert.equal((await edge('skewed', TEST_NOW + 4 * 60_000)).status, 'ingested');
        await assert.rejects(edge('future', TEST_NOW + 6 * 60_000), /future/);
        const forever = await openIngestContext(database, { retentionDays: 0 });
        try {
          const old = makeMatchInput({
            seed: 'old',
            overrides: { createdAt: '2019-10-23T00:15:00Z' },
          });
          assert.equal((await ingestMatch(forever.deps, old)).status, 'ingested');
          const season = await forever.deps.store.db
            .selectFrom('matches')
            .select('season_id')
            .executeTakeFirstOrThrow();
          assert.equal(season.season_id, 'division.bro.official.pc-2018-05');
        } finally {
          await forever.close();
        }
      } finally {
        await ctx.close();
      }
    },
  );

  test(name('cross-play participants count on their own platform'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const input = makeMatchInput({
        player: (seat) => (seat.index === 1 ? { shardId: 'console-b' } : {}),
        overrides: { platformShard: 'console-a', regionShard: 'console-a-eu' },
      });
      await ingestMatch(ctx.deps, input);
      const db = ctx.deps.store.db;
      const guest = accountId(1);
      const player = await db
        .selectFrom('players')
        .selectAll()
        .where('account_id', '=', guest)
        .executeTakeFirstOrThrow();
      assert.equal(player.platform, 'console-b');
      assert.equal(player.region, 'console-b-eu');
      const listed = await db
        .selectFrom('player_matches')
        .selectAll()
        .where('account_id', '=', guest)
        .executeTakeFirstOrThrow();
      assert.equal(listed.platform, 'console-b');
      const stats = await db
        .selectFrom('season_stats')
        .select(['platform', 'season_id'])
        .where('account_id', '=', guest)
        .orderBy('season_id')
        .execute();
      assert.deepEqual(stats, [
        { platform: 'console-b', season_id: 'division.bro.official.console-45' },
        { platform: 'console-b', season_id: 'lifetime' },
      ]);
      const host = await db
        .selectFrom('players')
        .select(['platform', 'region'])
        .where('account_id', '=', accountId(0))
        .executeTakeFirstOrThrow();
      assert.deepEqual(host, { platform: 'console-a', region: 'console-a-eu' });
    } finally {
      await ctx.close();
    }
  });

  test(name('the example match of schemas/ ingests'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const example = JSON.parse(
        fs.readFileSync(new URL('../../schemas/example-match.json', import.meta.url), 'utf8'),
      );
      const result = await ingestMatch(ctx.deps, example);
      assert.equal(result.status, 'ingested');
      const members = await findMatchMembers(ctx.deps.store.db, example.id, example.platformShard);
      assert.equal(members.participants.length, 4);
      assert.equal(members.rosters.length, 2);
      assert.equal(ctx.blobs().length, 1);
    } finally {
      await ctx.close();
    }
  });

  test(name('tournament matches register the tournament at its earliest match'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const game = (seed: string, daysAgo: number) =>
        makeMatchInput({
          seed,
          overrides: {
            platformShard: 'tournament',
            regionShard: 'pc-tournament',
            tournamentId: 'eu-pgs26',
            createdAt: at(TEST_NOW - daysAgo * DAY),
          },
        });
      await ingestMatch(ctx.deps, game('t2', 1));
      await ingestMatch(ctx.deps, game('t1', 3));
      const tournaments = await ctx.deps.store.db.selectFrom('tournaments').selectAll().execute();
      assert.deepEqual(tournaments, [{ id: 'eu-pgs26', created_at: TEST_NOW - 3 * DAY }]);
      const matches = await ctx.deps.store.db
        .selectFrom('matches')
        .select(['tournament_id', 'season_id'])
        .execute();
      assert.deepEqual(
        matches.map((m) => m.tournament_id),
        ['eu-pgs26', 'eu-pgs26'],
      );
      assert.equal(matches[0]!.season_id, CURRENT_SEASON, 'tournament matches use the PC seasons');
    } finally {
      await ctx.close();
    }
  });

  test(name('ids left out are derived from the match id, the same on every ingest'), async () => {
    const first = await openIngestContext(database);
    const second = await openIngestContext(database);
    try {
      const input = makeMatchInput({ rosters: 2, playersPerRoster: 2 });
      await ingestMatch(first.deps, input);
      await ingestMatch(second.deps, structuredClone(input));
      const ids = async (ctx: typeof first) => {
        const match = await ctx.deps.store.db
          .selectFrom('matches')
          .select(['asset_id', 'platform'])
          .executeTakeFirstOrThrow();
        const members = await findMatchMembers(ctx.deps.store.db, input.id, match.platform);
        return {
          asset: match.asset_id,
          rosters: members.rosters.map((r) => r.id),
          participants: members.participants.map((p) => p.id),
        };
      };
      const a = await ids(first);
      assert.deepEqual(await ids(second), a);
      assert.equal(new Set([...a.rosters, ...a.participants]).size, 6);
      // A v1 UUID's time: 100 ns ticks since 1582-10-15; its milliseconds are the asset's createdAt.
      const hex = a.asset.replace(/-/g, '');
      const ticks = BigInt(`0x${hex.slice(13, 16)}${hex.slice(8, 12)}${hex.slice(0, 8)}`);
      assert.equal(
        Number(ticks / 10_000n) - 12_219_292_800_000,
        Date.parse(input.createdAt) + 1_920_000,
      );
    } finally {
      await first.close();
      await second.close();
    }
  });
}
