/**
 * `gamedata demo --players <n>`: grows a store holding the demo to `n` players with twins of
 * its players (src/store/player-twins.ts) — a million players in minutes, for measuring the
 * service and its jobs at that size, without generating a million players' matches.
 */
import { requestDerivedDataRebuild } from '../jobs/index.ts';
import { countPlayers, countTwins, insertTwins, listTwinTemplates } from '../store/player-twins.ts';
import type { Store } from '../store/store.ts';

/** Twins stored per transaction, about: large enough that per-statement costs vanish. */
const TWINS_PER_BATCH = 50_000;
/** Templates per statement: their ids are bound parameters (3 each), within both databases' limits. */
const TEMPLATES_PER_STATEMENT = 2_000;

/** The tables twins are added to (src/store/player-twins.ts). */
const TWIN_TABLES = ['players', 'season_stats', 'player_matches'];

export interface TwinsSummary {
  /** Players in the store before and after. */
  before: number;
  after: number;
  /** Players copied (those with season aggregates). */
  templates: number;
  ms: number;
}

/**
 * Adds twins until the store holds `players` players (none when it already does), settles the
 * tables they were added to (on PostgreSQL, as autovacuum would later: jobs measured right
 * after a build otherwise read the table behind each index entry, twice as slow), then asks
 * for a rebuild of the derived data (leaderboards, samples). `progress` is told the players
 * stored after each transaction. Resumes where an interrupted run stopped.
 */
export async function addPlayerTwins(
  store: Pick<Store, 'db' | 'settleTables'>,
  players: number,
  progress: (stored: number) => void = () => {},
): Promise<TwinsSummary> {
  const { db } = store;
  const started = performance.now();
  const before = await countPlayers(db);
  const templates = await listTwinTemplates(db);
  const summary = (after: number): TwinsSummary => ({
    before,
    after,
    templates: templates.length,
    ms: performance.now() - started,
  });
  if (before >= players) return summary(before);
  if (templates.length === 0)
    throw new Error('No player with season stats to copy: load the demo first');

  const count = templates.length;
  const from = await countTwins(db);
  const limit = from + (players - before);
  const rounds = Math.max(1, Math.floor(TWINS_PER_BATCH / count));
  for (let round = Math.floor(from / count); round * count < limit; round += rounds) {
    for (let at = 0; at < count; at += TEMPLATES_PER_STATEMENT) {
      await insertTwins(db, {
        templates: templates.slice(at, at + TEMPLATES_PER_STATEMENT),
        templateCount: count,
        firstRound: round,
        rounds,
        from,
        limit,
      });
    }
    progress(before + Math.min(limit, (round + rounds) * count) - from);
  }
  await store.settleTables?.(db, TWIN_TABLES);
  await requestDerivedDataRebuild(db);
  return summary(await countPlayers(db));
}
