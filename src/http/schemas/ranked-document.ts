/** The ranked stats document (REFERENCE §3.7, §4.4): a player's ranked play of one season. */
import { Type } from '@sinclair/typebox';
import { RANKED_GAME_MODES } from '../../domain/ranked-seasons.ts';
import { SuccessDocument, ToOne } from './json-api.ts';
import { EXAMPLE_ACCOUNT, EXAMPLE_BASE_URL, EXAMPLE_SEASON } from './examples.ts';

const Tier = Type.Object({
  tier: Type.String({ examples: ['Gold'] }),
  subTier: Type.String({ description: 'A digit, as a string', examples: ['3'] }),
});

const INTEGER_STATS = (
  'currentRankPoint bestRankPoint roundsPlayed assists wins kills deaths roundMostKills ' +
  'headshotKills dBNOs revives heals boosts weaponsAcquired teamKills killStreak'
).split(' ');
const NUMBER_STATS = (
  'avgRank avgSurvivalTime top10Ratio winRatio kda kdr avgKill longestKill headshotKillRatio ' +
  'damageDealt reviveRatio playTime'
).split(' ');

/** One ranked mode's stats; deprecated members are kept and always 0. */
export const RankedGameModeStats = Type.Object(
  {
    currentTier: Tier,
    bestTier: Tier,
    ...Object.fromEntries(INTEGER_STATS.map((name) => [name, Type.Integer()])),
    ...Object.fromEntries(NUMBER_STATS.map((name) => [name, Type.Number()])),
  },
  {
    $id: 'RankedGameModeStats',
    description:
      'Deprecated, always 0: avgSurvivalTime, kdr, roundMostKills, longestKill, headshotKills, ' +
      'headshotKillRatio, reviveRatio, revives, heals, boosts, weaponsAcquired, teamKills, ' +
      'playTime, killStreak.',
  },
);

const zero = Object.fromEntries([...INTEGER_STATS, ...NUMBER_STATS].map((name) => [name, 0]));

export const RankedStatsDocument = SuccessDocument(
  'RankedStatsDocument',
  {
    data: Type.Object({
      type: Type.Literal('rankedplayerstats'),
      attributes: Type.Object({
        rankedGameModeStats: Type.Partial(
          Type.Object(
            Object.fromEntries(
              RANKED_GAME_MODES.map((mode) => [mode, Type.Ref(RankedGameModeStats)]),
            ),
          ),
          { description: 'The ranked modes played that season only; `{}` when none' },
        ),
      }),
      relationships: Type.Object({ player: ToOne('player'), season: ToOne('season') }),
    }),
  },
  {
    description: "A player's ranked stats of one season (no `id`, as on the real service).",
    examples: [
      {
        data: {
          type: 'rankedplayerstats',
          attributes: {
            rankedGameModeStats: {
              'squad-fpp': {
                ...zero,
                ...{ currentTier: { tier: 'Gold', subTier: '3' }, currentRankPoint: 2140 },
                ...{ bestTier: { tier: 'Gold', subTier: '2' }, bestRankPoint: 2215 },
                ...{ roundsPlayed: 12, avgRank: 8.25, top10Ratio: 0.5, winRatio: 0.0833 },
                ...{ wins: 1, kills: 14, deaths: 11, assists: 6, kda: 1.818, avgKill: 1.1667 },
                ...{ damageDealt: 2410.5, dBNOs: 9 },
              },
            },
          },
          relationships: {
            player: { data: { type: 'player', id: EXAMPLE_ACCOUNT } },
            season: { data: { type: 'season', id: EXAMPLE_SEASON } },
          },
        },
        links: {
          self: `${EXAMPLE_BASE_URL}/shards/pc-b/players/${EXAMPLE_ACCOUNT}/seasons/${EXAMPLE_SEASON}/ranked`,
        },
        meta: {},
      },
    ],
  },
);
