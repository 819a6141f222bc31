/**
 * What the PostgreSQL rebuild fault tests share: aggregates for every board the leaderboard
 * job builds, a snapshot of the stored boards to compare runs with, and a way into each board's
 * serial connection (src/store/postgres/dialect.ts) to fail or pause it at a chosen statement.
 */
import { sql, type KyselyPlugin, type QueryResult, type UnknownRow } from 'kysely';
import { STANDARD_GAME_MODES } from '../../src/domain/game-modes.ts';
import { seasonAt } from '../../src/domain/seasons.ts';
import { PC_PLATFORMS } from '../../src/domain/shards.ts';
import {
  DAILY_STAT_COLUMNS,
  MAXED_STAT_COLUMNS,
  SUMMED_STAT_COLUMNS,
  WEEKLY_STAT_COLUMNS,
  type SeasonStatsValues,
} from '../../src/domain/stats.ts';
import { listSeasons } from '../../src/store/seasons.ts';
import type { Db, Store } from '../../src/store/store.ts';
import { accountId } from './matches.ts';

/** Every stat of a season aggregate at zero: what seeded aggregates start from. */
export const ZERO_AGGREGATE = Object.fromEntries(
  [
    ...SUMMED_STAT_COLUMNS,
    ...MAXED_STAT_COLUMNS,
    ...DAILY_STAT_COLUMNS,
    ...WEEKLY_STAT_COLUMNS,
    'days',
  ].map((column) => [column, 0]),
) as unknown as SeasonStatsValues;

const REGIONS = ['pc-eu', 'pc-na', 'pc-as'];

/** The account id of seeded player `index` of `platform`. */
export const rankedAccountId = (platform: string, index: number): string =>
  accountId(`${platform}-ranked-${index}`);

/**
 * `count` players on each PC platform, each with an aggregate of the platform's current season
 * (at `now`) in every standard mode, so that each of the job's boards has `count` candidates.
 */
export async function seedEveryBoard(store: Store, now: number, count: number): Promise<void> {
  for (const platform of PC_PLATFORMS) {
    const season = seasonAt(await listSeasons(store.db, platform), now);
    if (!season) throw new Error(`no current season of ${platform}`);
    const players = [];
    const stats = [];
    for (let i = 0; i < count; i++) {
      const accountId = rankedAccountId(platform, i);
      players.push({
        platform,
        account_id: accountId,
        name: `Ranked${i}`,
        ban_type: 'Innocent',
        clan_id: '',
        first_seen_at: 0,
        last_seen_at: 0,
        region: REGIONS[i % REGIONS.length]!,
      });
      for (const [m, gameMode] of STANDARD_GAME_MODES.entries()) {
        const games = 1 + ((i * 7 + m) % 30);
        stats.push({
          ...ZERO_AGGREGATE,
          platform,
          account_id: accountId,
          season_id: season.id,
          game_mode: gameMode,
          rounds_played: games,
          wins: (i + m) % Math.min(games, 4),
          top10s: Math.min(games, (i * 3 + m) % 9),
          kills: (i * 11 + m) % 50,
          damage_dealt: ((i * 37 + m) % 400) * 25.25,
          win_place_sum: games * (1 + ((i * 17 + m) % 50)),
          updated_at: 0,
        });
      }
    }
    await store.db.insertInto('players').values(players).execute();
    // The database gives each aggregate its player's region (migration 0015's triggers).
    await store.db.insertInto('season_stats').values(stats).execute();
  }
}

/** One stored board: its build and its entries in rank order (without the build id). */
export interface StoredBoard {
  id: string;
  seasonId: string;
  entries: unknown[];
}

/** Every stored build by `platform mode`, with its entries. */
export async function storedBoards(db: Db): Promise<Map<string, StoredBoard>> {
  const builds = await db.selectFrom('leaderboards').selectAll().execute();
  const boards = new Map<string, StoredBoard>();
  for (const build of builds) {
    const rows = await db
      .selectFrom('leaderboard_entries')
      .selectAll()
      .where('leaderboard_id', '=', build.id)
      .orderBy('rank')
      .execute();
    const entries = rows.map(({ leaderboard_id: _, ...entry }) => entry);
    boards.set(`${build.platform} ${build.game_mode}`, {
      id: build.id,
      seasonId: build.season_id,
      entries,
    });
  }
  return boards;
}

/** What `hookBoards` lets a test do on the serial connection of one board's reads. */
export interface BoardHook {
  /** Which board (0-based, in the order the builders take them) the hook is for. */
  board: number;
  /** After how many of the board's statements `run` is awaited (before the next one is sent). */
  afterStatements: number;
  /** Called with the server process id of the board's connection. */
  run(pid: number): Promise<void>;
}

/** What happened to the serial connections of `hookBoards`'s store so far. */
export interface BoardCalls {
  /** Boards whose reads started. */
  started: number;
  /** Boards whose reads are under way right now. */
  active: number;
}

/**
 * Replaces the store's `withSerialConnection` by one that counts the boards read on it and, for
 * `hook.board`, awaits `hook.run` between two of its statements. Returns the live counts.
 */
export function hookBoards(store: Store, hook: BoardHook): BoardCalls {
  const serial = store.withSerialConnection!;
  const calls: BoardCalls = { started: 0, active: 0 };
  store.withSerialConnection = (db, work) => {
    const board = calls.started++;
    calls.active++;
    return serial(db, async (connection) => {
      if (board !== hook.board) return work(connection);
      const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(
        connection,
      );
      let statements = 0;
      const plugin: KyselyPlugin = {
        transformQuery: (args) => args.node,
        async transformResult(args): Promise<QueryResult<UnknownRow>> {
          if (++statements === hook.afterStatements) await hook.run(rows[0]!.pid);
          return args.result;
        },
      };
      return work(connection.withPlugin(plugin));
    }).finally(() => calls.active--);
  };
  return calls;
}
