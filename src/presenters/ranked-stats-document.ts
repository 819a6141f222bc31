/**
 * The ranked stats document (REFERENCE §3.7): a `rankedplayerstats` resource without an id,
 * `rankedGameModeStats` holding only the modes the player played that season (an empty object
 * when none), the player and season relationships, `links.self` and `meta`.
 */
import { RANKED_GAME_MODES } from '../domain/ranked-seasons.ts';
import { rankedGameModeStats, type RankedState } from '../domain/ranked-stats.ts';

/** What one ranked stats document shows. */
export interface RankedStatsView {
  accountId: string;
  seasonId: string;
  /** Ranked states by game mode; modes without one are left out. */
  modes: ReadonlyMap<string, RankedState>;
}

const json = JSON.stringify;

export function renderRankedStats(view: RankedStatsView, selfUrl: string): string {
  const modes = RANKED_GAME_MODES.filter((mode) => view.modes.has(mode))
    .map((mode) => `${json(mode)}:${json(rankedGameModeStats(view.modes.get(mode)!))}`)
    .join(',');
  return (
    `{"data":{"type":"rankedplayerstats","attributes":{"rankedGameModeStats":{${modes}}},` +
    `"relationships":{"player":{"data":{"type":"player","id":${json(view.accountId)}}},` +
    `"season":{"data":{"type":"season","id":${json(view.seasonId)}}}}},` +
    `"links":{"self":${json(selfUrl)}},"meta":{}}`
  );
}
