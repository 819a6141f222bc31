/**
 * The ranked results of a match (src/domain/ranked-seasons.ts says which matches and seasons
 * are ranked): one per human participant whose season on their platform has ranked play.
 */
import { isRankedMatch, isRankedSeason } from '../domain/ranked-seasons.ts';
import type { Platform } from '../domain/shards.ts';
import { isBot } from '../domain/stats.ts';
import type { RankedAddition } from '../store/ranked-writes.ts';
import type { ValidMatch } from './validate-match.ts';

/** The ranked results a validated match adds; none for a match that is not ranked play. */
export function rankedAdditions(
  match: ValidMatch,
  seasons: ReadonlyMap<Platform, string>,
): RankedAddition[] {
  const m = match.input;
  if (!isRankedMatch(m)) return [];
  return match.participants.flatMap((p): RankedAddition[] => {
    const seasonId = seasons.get(p.platform)!;
    if (isBot(p.input.playerId) || !isRankedSeason(p.platform, seasonId)) return [];
    const stats = p.input.stats;
    return [
      {
        platform: p.platform,
        accountId: p.input.playerId,
        seasonId,
        gameMode: m.gameMode,
        result: {
          matchId: m.id,
          createdAt: match.createdAt,
          winPlace: stats.winPlace,
          won: m.rosters[p.rosterIndex]!.won,
          kills: stats.kills,
          assists: stats.assists,
          dbnos: stats.DBNOs,
          damageDealt: stats.damageDealt,
          died: stats.deathType !== 'alive',
        },
      },
    ];
  });
}
