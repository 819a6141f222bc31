/** The sample document (REFERENCE §3.13): random matches of one day of a region. */
import { Type } from '@sinclair/typebox';
import { Identifier, SuccessDocument, Timestamp } from './json-api.ts';
import { EXAMPLE_BASE_URL, EXAMPLE_MATCH, EXAMPLE_MATCH_2 } from './examples.ts';

const SampledMatch = Type.Object({
  ...Identifier('match').properties,
  meta: Type.Object({
    shardId: Type.String({ description: 'The shard to fetch the match on' }),
  }),
});

export const SampleDocument = SuccessDocument(
  'SampleDocument',
  {
    data: Type.Object({
      ...Identifier('sample').properties,
      attributes: Type.Object({
        createdAt: Timestamp('The end of the day the matches were drawn from'),
        titleId: Type.String(),
        shardId: Type.String(),
      }),
      relationships: Type.Object({ matches: Type.Object({ data: Type.Array(SampledMatch) }) }),
    }),
  },
  {
    description: 'Matches drawn at random from one closed day (00:00–24:00 UTC) of a region.',
    examples: [
      {
        data: {
          type: 'sample',
          id: '8b7a6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d',
          attributes: {
            createdAt: '2026-11-20T00:00:00Z',
            titleId: 'bluehole-pubg',
            shardId: 'pc-eu',
          },
          relationships: {
            matches: {
              data: [
                { type: 'match', id: EXAMPLE_MATCH, meta: { shardId: 'pc-b' } },
                { type: 'match', id: EXAMPLE_MATCH_2, meta: { shardId: 'pc-b' } },
              ],
            },
          },
        },
        links: { self: `${EXAMPLE_BASE_URL}/shards/pc-eu/samples` },
        meta: {},
      },
    ],
  },
);
