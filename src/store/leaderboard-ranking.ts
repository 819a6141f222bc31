/**
 * The leaderboard ranking of src/domain/ranking.ts at a million players: the pooled means in one
 * aggregate statement, then every candidate read in account id ranges of `CANDIDATES_PER_READ`
 * (src/store/leaderboard-candidates.ts: the covering index `season_stats_ranking_by_region`, the
 * region stored beside each aggregate), scored with the domain's `rankScore` and kept only while
 * among the best of its region; the names of the entries are read last. No
 * candidate list is ever held, no statement sorts the population, and no statement runs long:
 * the store is free between pages for the writers and readers of other threads.
 *
 * The pages are read outside one transaction: an ingest committed meanwhile is counted for the
 * players read after it. A leaderboard is a snapshot of "about now" either way.
 */
import { BoundedBest } from '../domain/bounded-best.ts';
import {
  LEADERBOARD_SIZE,
  REGIONAL_LEADERBOARD_SIZE,
  rankPointsOf,
  rankScore,
  tierOf,
  type RankedPlayer,
} from '../domain/ranking.ts';
import {
  rangeEnd,
  readCandidates,
  readMeans,
  readNames,
  type RankingCandidate,
} from './leaderboard-candidates.ts';
import type { LeaderboardCandidate, LeaderboardKey } from './leaderboards.ts';
import type { Db, Store } from './store.ts';

/** Candidates read per statement: large enough that per-statement costs vanish, small in memory. */
const CANDIDATES_PER_READ = 20_000;

/** The stored entries of one leaderboard and how many players were ranked for it. */
export interface RankedLeaderboard {
  entries: RankedPlayer<LeaderboardCandidate>[];
  /** Players with an aggregate for the key: the population the means were pooled over. */
  candidates: number;
}

interface Scored {
  player: RankingCandidate;
  score: number;
}

/** The leaderboard order: score, then wins and games descending, then account id bytewise. */
const ahead = (a: Scored, b: Scored): boolean =>
  a.score !== b.score
    ? a.score > b.score
    : a.player.wins !== b.player.wins
      ? a.player.wins > b.player.wins
      : a.player.games !== b.player.games
        ? a.player.games > b.player.games
        : a.player.accountId < b.player.accountId;

const compare = (a: Scored, b: Scored): number => (ahead(a, b) ? -1 : ahead(b, a) ? 1 : 0);

/**
 * Ranks every player with an aggregate for `key` and returns the entries a build stores (as
 * `leaderboardEntries(rankPlayers(…))`): the top `size` of the platform plus the top
 * `regionalSize` of each named region, in rank order, with rank points and tier. Only the best
 * `max(size, regionalSize)` of each region can be among them (whoever has fewer than `size`
 * players above them overall has fewer in their region), so that is all that is kept; an entry
 * below the platform's top `size` is ranked by its position among those.
 *
 * The means are summed by the database in its own order, which can differ from the JS rule's
 * account id order in the last bits of the damage mean: scores then differ by a few units in
 * the last place, which can only swap two players whose scores agree to ~15 digits.
 */
export function rankLeaderboard(
  store: Store,
  key: LeaderboardKey,
  options: RankOptions = {},
): Promise<RankedLeaderboard> {
  // One connection for the board's many short statements, each run by one server process.
  return store.withSerialConnection
    ? store.withSerialConnection(store.db, (db) => rankOn(db, key, options))
    : rankOn(store.db, key, options);
}

async function rankOn(
  db: Db,
  key: LeaderboardKey,
  options: RankOptions,
): Promise<RankedLeaderboard> {
  const size = options.size ?? LEADERBOARD_SIZE;
  const regionalSize = options.regionalSize ?? REGIONAL_LEADERBOARD_SIZE;
  const perRead = options.perRead ?? CANDIDATES_PER_READ;
  const { means, population } = await readMeans(db, key);
  if (population === 0) return { entries: [], candidates: 0 };
  const capacity = Math.max(size, regionalSize);
  const regions = new Map<string, BoundedBest<Scored>>();
  let after: string | null = null;
  do {
    const upTo = await rangeEnd(db, key, after, perRead);
    const page = await readCandidates(db, key, {
      after,
      upTo,
      means,
      bounds: cutOffs(regions, capacity),
    });
    for (const player of page) {
      let best = regions.get(player.region);
      if (best === undefined) regions.set(player.region, (best = new BoundedBest(capacity, ahead)));
      best.offer({ player, score: rankScore(player, means) });
    }
    after = upTo;
  } while (after !== null);

  const kept = [...regions.values()].flatMap((best) => [...best.items()]).sort(compare);
  const perRegion = new Map<string, number>();
  const ranked: RankedPlayer<RankingCandidate>[] = [];
  for (const [index, { player, score }] of kept.entries()) {
    const inRegion = (perRegion.get(player.region) ?? 0) + 1;
    perRegion.set(player.region, inRegion);
    if (index >= size && (player.region === '' || inRegion > regionalSize)) continue;
    const rankPoints = rankPointsOf(score);
    ranked.push({ player, rank: index + 1, score, rankPoints, ...tierOf(rankPoints) });
  }
  const names = await readNames(
    db,
    key.platform,
    ranked.map((entry) => entry.player.accountId),
  );
  const entries = ranked.map((entry) => ({
    ...entry,
    player: { ...entry.player, name: names.get(entry.player.accountId) ?? '' },
  }));
  return { entries, candidates: population };
}

export interface RankOptions {
  /** Entries of the platform's board (default LEADERBOARD_SIZE) and of each region's. */
  size?: number;
  regionalSize?: number;
  /** Candidates a statement reads (tests make it small). */
  perRead?: number;
}

/**
 * Below what score a candidate of each region can no longer be kept: the worst kept score of
 * every region whose best are complete, less a margin for the last bits in which the
 * database's logarithm may differ from JS's (the kept are scored again in JS).
 */
function cutOffs(regions: Map<string, BoundedBest<Scored>>, capacity: number): Map<string, number> {
  const bounds = new Map<string, number>();
  for (const [region, best] of regions) {
    const items = best.items();
    if (items.length === capacity) bounds.set(region, items[0]!.score - SCORE_MARGIN);
  }
  return bounds;
}

/** Far above a rounding difference of scores near 1, far below any real difference. */
const SCORE_MARGIN = 1e-9;
