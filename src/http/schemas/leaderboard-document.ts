/** The leaderboard document (REFERENCE §3.10, §3.11, §4.5): a page of ranked players. */
import { Type } from '@sinclair/typebox';
import { Identifier, SuccessDocument, ToMany } from './json-api.ts';
import { EXAMPLE_ACCOUNT, EXAMPLE_BASE_URL, EXAMPLE_SEASON } from './examples.ts';

const Entry = Type.Object({
  ...Identifier('player').properties,
  attributes: Type.Object({
    name: Type.String(),
    rank: Type.Integer({ minimum: 1, description: '1 is the best; unique in the leaderboard' }),
    stats: Type.Object({
      rankPoints: Type.Integer(),
      wins: Type.Integer({ minimum: 0 }),
      games: Type.Integer({ minimum: 0 }),
      winRatio: Type.Number({ minimum: 0, maximum: 1 }),
      averageDamage: Type.Integer({ minimum: 0 }),
      kills: Type.Integer({ minimum: 0 }),
      killDeathRatio: Type.Number({ description: 'Deprecated: always 0' }),
      kda: Type.Number({ description: 'Deprecated: always 0' }),
      averageRank: Type.Number({ description: 'Average placement' }),
      averageKill: Type.Number(),
      tier: Type.String({ examples: ['Gold', 'Master'] }),
      subTier: Type.String({ description: 'A digit, as a string', examples: ['1'] }),
    }),
  }),
});

export const LeaderboardDocument = SuccessDocument(
  'LeaderboardDocument',
  {
    data: Type.Object({
      ...Identifier('leaderboard').properties,
      attributes: Type.Object({
        shardId: Type.String(),
        gameMode: Type.String(),
        seasonId: Type.String(),
      }),
      relationships: Type.Object({ players: ToMany('player', 'The players of the page') }),
    }),
    included: Type.Array(Entry, { maxItems: 500, description: 'The players, in rank order' }),
  },
  {
    description:
      "A page of the current season's leaderboard: empty until its first build, then rebuilt on schedule.",
    examples: [
      {
        data: {
          type: 'leaderboard',
          id: '0d9f2e4c-7b1a-4c3d-8e5f-6a7b8c9d0e1f',
          attributes: { shardId: 'pc-b', gameMode: 'squad-fpp', seasonId: EXAMPLE_SEASON },
          relationships: { players: { data: [{ type: 'player', id: EXAMPLE_ACCOUNT }] } },
        },
        included: [
          {
            type: 'player',
            id: EXAMPLE_ACCOUNT,
            attributes: {
              name: 'SlyFox_42',
              rank: 1,
              stats: {
                ...{ rankPoints: 2731, wins: 9, games: 31, winRatio: 0.29032257 },
                ...{ averageDamage: 402, kills: 88, killDeathRatio: 0, kda: 0 },
                ...{ averageRank: 4.1935484, averageKill: 2.8387096, tier: 'Master', subTier: '1' },
              },
            },
          },
        ],
        links: { self: `${EXAMPLE_BASE_URL}/shards/pc-b/leaderboards/squad-fpp?page[number]=0` },
        meta: {},
      },
    ],
  },
);
