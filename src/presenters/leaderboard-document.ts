/**
 * Leaderboard documents (REFERENCE §3.10, §3.11, §4.5): the `leaderboard` resource whose
 * `players` relationship lists a page of players, with those players — a leaderboard's own
 * shape of `player`, not the player endpoint's — in the top-level `included`. Rendered straight
 * to a string, once per build and page.
 */
import type { LeaderboardEntry } from '../store/leaderboards.ts';

/** One player of the page, as the build stored it (the region only decides regional pages). */
export type LeaderboardEntryView = Omit<LeaderboardEntry, 'region'>;

export interface LeaderboardView {
  /** The build id. */
  id: string;
  /** The shard as the request spelled it. */
  shardId: string;
  gameMode: string;
  seasonId: string;
  /** In rank order. */
  entries: readonly LeaderboardEntryView[];
  selfUrl: string;
}

const json = JSON.stringify;

/** `value / games`, 0 for a player without games (never stored, but never NaN either). */
const perGame = (value: number, games: number): number => (games > 0 ? value / games : 0);

/**
 * One `included` player. `killDeathRatio` and `kda` are deprecated and always 0 on the real
 * service; `rankPoints` and `averageDamage` are integers, `subTier` a string digit.
 */
function renderEntry(entry: LeaderboardEntryView): string {
  const { games } = entry;
  return (
    `{"type":"player","id":${json(entry.accountId)},"attributes":{"name":${json(entry.name)},` +
    `"rank":${entry.rank},"stats":{"rankPoints":${entry.rankPoints},"wins":${entry.wins},` +
    `"games":${games},"winRatio":${perGame(entry.wins, games)},` +
    `"averageDamage":${Math.round(perGame(entry.damageDealt, games))},"kills":${entry.kills},` +
    `"killDeathRatio":0,"kda":0,"averageRank":${perGame(entry.winPlaceSum, games)},` +
    `"averageKill":${perGame(entry.kills, games)},"tier":${json(entry.tier)},` +
    `"subTier":${json(entry.subTier)}}}}`
  );
}

/** The whole document; `included` and the relationship list the entries in rank order. */
export function renderLeaderboard(view: LeaderboardView): string {
  let references = '';
  let included = '';
  for (let i = 0; i < view.entries.length; i++) {
    const entry = view.entries[i]!;
    const comma = i === 0 ? '' : ',';
    references += `${comma}{"type":"player","id":${json(entry.accountId)}}`;
    included += comma + renderEntry(entry);
  }
  return (
    `{"data":{"type":"leaderboard","id":${json(view.id)},"attributes":{"shardId":${json(view.shardId)},` +
    `"gameMode":${json(view.gameMode)},"seasonId":${json(view.seasonId)}},` +
    `"relationships":{"players":{"data":[${references}]}}},"included":[${included}],` +
    `"links":{"self":${json(view.selfUrl)}},"meta":{}}`
  );
}
