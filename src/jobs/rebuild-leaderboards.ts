import type { Config } from '../config.ts';
import type { Job, JobDeps } from './scheduler.ts';
import { STANDARD_GAME_MODES } from '../domain/game-modes.ts';
import { seasonAt } from '../domain/seasons.ts';
import { PC_PLATFORMS, type Platform } from '../domain/shards.ts';
import {
  listLeaderboardKeys,
  replaceLeaderboard,
  type LeaderboardKey,
} from '../store/leaderboards.ts';
import { rankLeaderboard } from '../store/leaderboard-ranking.ts';
import { listSeasons } from '../store/seasons.ts';
import type { Db } from '../store/store.ts';

/**
 * Boards built at once where the database is a server (PostgreSQL): the work is the server's,
 * one process per connection, and two keeps two cores busy while each builder's JS and round
 * trips leave its connection idle. SQLite runs in this thread: one at a time.
 */
const BOARDS_AT_ONCE_ON_A_SERVER = 2;

const intervalMs = (config: Readonly<Config>): number => config.leaderboardIntervalMinutes * 60_000;

/** The current season of each PC platform at `now` (platforms before their first season are left out). */
async function currentSeasons(
  db: Db,
  now: number,
): Promise<Array<{ platform: Platform; seasonId: string }>> {
  const current: Array<{ platform: Platform; seasonId: string }> = [];
  for (const platform of PC_PLATFORMS) {
    const season = seasonAt(await listSeasons(db, platform), now);
    if (season) current.push({ platform, seasonId: season.id });
  }
  return current;
}

export interface RebuildSummary {
  seasons: Array<{ platform: Platform; seasonId: string }>;
  /** Leaderboards built (platforms × modes). */
  builds: number;
  /** Ranked players read, over every build. */
  candidates: number;
  /** Entries stored, over every build. */
  entries: number;
}

/**
 * Rebuilds the leaderboard of every PC platform's current season and standard game mode: ranks
 * every player with an aggregate there and stores the top 1000 (plus each region's top 500) as
 * a new build that replaces the previous one, also of an earlier season. A mode nobody played
 * yet gets an empty build, so the endpoint answers for it and the job knows it is done. The
 * scores are computed in the database (src/store/leaderboard-ranking.ts), so few rows beyond
 * the stored entries are read; on PostgreSQL two boards are built at once.
 */
export async function rebuildLeaderboards(deps: JobDeps): Promise<RebuildSummary> {
  const { store, config, clock } = deps;
  const seasons = await currentSeasons(store.db, clock.now());
  const summary: RebuildSummary = { seasons, builds: 0, candidates: 0, entries: 0 };
  const boards: LeaderboardKey[] = seasons.flatMap(({ platform, seasonId }) =>
    STANDARD_GAME_MODES.map((gameMode) => ({ platform, seasonId, gameMode })),
  );
  const build = async (key: LeaderboardKey): Promise<void> => {
    const { entries, candidates } = await rankLeaderboard(store, key);
    const builtAt = clock.now();
    await replaceLeaderboard(store, key, entries, {
      builtAt,
      expiresAt: builtAt + intervalMs(config),
    });
    summary.builds++;
    summary.candidates += candidates;
    summary.entries += entries.length;
  };
  // Each builder takes the next board left; after a failure none is started, and the job ends
  // (with the first error) only once no builder is at work.
  const builders = store.dialect === 'postgres' ? BOARDS_AT_ONCE_ON_A_SERVER : 1;
  let next = 0;
  let failed = false;
  const builder = async (): Promise<void> => {
    while (!failed && next < boards.length) {
      await build(boards[next++]!).catch((error: unknown) => {
        failed = true;
        throw error;
      });
    }
  };
  const outcomes = await Promise.allSettled(Array.from({ length: builders }, builder));
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  return summary;
}

/**
 * True when some PC platform's current season lacks a build for a standard mode (never built,
 * or the stored build is of an earlier season): a fresh start or a new season then gets its
 * leaderboards at once rather than at the next interval.
 */
export async function leaderboardsMissing(deps: JobDeps): Promise<boolean> {
  const { store, clock } = deps;
  const built = new Set(
    (await listLeaderboardKeys(store.db, PC_PLATFORMS)).map(
      (key) => `${key.platform}\u0000${key.seasonId}\u0000${key.gameMode}`,
    ),
  );
  for (const { platform, seasonId } of await currentSeasons(store.db, clock.now())) {
    for (const gameMode of STANDARD_GAME_MODES) {
      if (!built.has(`${platform}\u0000${seasonId}\u0000${gameMode}`)) return true;
    }
  }
  return false;
}

export const rebuildLeaderboardsJob: Job = {
  name: 'leaderboards',
  intervalMs,
  outputMissing: leaderboardsMissing,
  derivedFromMatches: true,
  async run(deps) {
    const started = performance.now();
    const result = await rebuildLeaderboards(deps);
    const seasons =
      result.seasons.map((s) => `${s.platform} ${s.seasonId}`).join(', ') || 'no season';
    return (
      `built ${result.builds} leaderboards (${seasons}) from ${result.candidates} ranked players, ` +
      `${result.entries} entries stored, in ${Math.round(performance.now() - started)} ms`
    );
  },
};
