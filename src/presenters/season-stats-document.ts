/**
 * Season and lifetime stats documents (REFERENCE §3.5, §3.6, §3.8): `playerSeason` resources
 * with per-mode `GameModeStats` and the per-mode lists of counted matches. Rendered straight to a
 * string from the stored aggregates; nothing is computed here beyond naming the fields.
 */
import { gameModeStatsFromRow, type SeasonStatsValues } from '../domain/stats.ts';
import {
  MATCH_LIST_RELATIONSHIP,
  STANDARD_GAME_MODES,
  type StandardGameMode,
} from '../domain/game-modes.ts';
import { matchReferences } from './player-document.ts';

/** What one `playerSeason` resource shows. */
export interface PlayerSeasonView {
  accountId: string;
  /** A season id, or `lifetime`. */
  seasonId: string;
  /** The modes whose stats are shown: all six for one player, the requested one in a batch. */
  gameModes: readonly StandardGameMode[];
  /** Aggregate rows by game mode; a mode without a row is shown zero-filled. */
  stats: ReadonlyMap<string, Partial<SeasonStatsValues>> | undefined;
  /** Counted match ids by game mode, newest first; a mode without a list shows `[]`. */
  matches: ReadonlyMap<string, readonly string[]> | undefined;
}

const json = JSON.stringify;
/** Modes in the byte-wise order the real service lists `gameModeStats` keys in. */
const SORTED_MODES = [...STANDARD_GAME_MODES].sort();

/** One `playerSeason` resource; its id is `<accountId>:<seasonId>` (DESIGN §5). */
export function renderPlayerSeasonResource(view: PlayerSeasonView): string {
  const shown = new Set<string>(view.gameModes);
  const stats = SORTED_MODES.filter((mode) => shown.has(mode))
    .map((mode) => `${json(mode)}:${json(gameModeStatsFromRow(view.stats?.get(mode)))}`)
    .join(',');
  const lists = STANDARD_GAME_MODES.map(
    (mode) =>
      `,${json(MATCH_LIST_RELATIONSHIP[mode])}:{"data":[${matchReferences(view.matches?.get(mode) ?? [])}]}`,
  ).join('');
  return (
    `{"type":"playerSeason","id":${json(`${view.accountId}:${view.seasonId}`)},` +
    `"attributes":{"gameModeStats":{${stats}},"bestRankPoint":0},` +
    `"relationships":{"player":{"data":{"type":"player","id":${json(view.accountId)}}},` +
    `"season":{"data":{"type":"season","id":${json(view.seasonId)}}}${lists}}}`
  );
}

/** The document of one player's season or lifetime stats. */
export function renderPlayerSeason(view: PlayerSeasonView, selfUrl: string): string {
  return `{"data":${renderPlayerSeasonResource(view)},"links":{"self":${json(selfUrl)}},"meta":{}}`;
}

/** The document of the batch form: `data` is an array, one resource per player found. */
export function renderPlayerSeasonList(
  views: readonly PlayerSeasonView[],
  selfUrl: string,
): string {
  const resources = views.map(renderPlayerSeasonResource).join(',');
  return `{"data":[${resources}],"links":{"self":${json(selfUrl)}},"meta":{}}`;
}
