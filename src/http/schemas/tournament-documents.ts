/** Tournament documents (REFERENCE §3.12): the list, and one tournament with its matches. */
import { Type } from '@sinclair/typebox';
import { Identifier, SuccessDocument, Timestamp, ToMany } from './json-api.ts';
import { EXAMPLE_BASE_URL, EXAMPLE_MATCH } from './examples.ts';

const Tournament = Type.Object({
  ...Identifier('tournament').properties,
  attributes: Type.Object({ createdAt: Timestamp() }),
});

export const TournamentListDocument = SuccessDocument(
  'TournamentListDocument',
  { data: Type.Array(Tournament) },
  {
    description: 'Tournaments with matches inside the retention window.',
    examples: [
      {
        data: [
          { type: 'tournament', id: 'eu-cup5', attributes: { createdAt: '2026-11-18T16:00:00Z' } },
        ],
        links: { self: `${EXAMPLE_BASE_URL}/tournaments` },
        meta: {},
      },
    ],
  },
);

export const TournamentDocument = SuccessDocument(
  'TournamentDocument',
  {
    data: Type.Object({
      ...Tournament.properties,
      relationships: Type.Object({
        matches: ToMany('match', 'Fetch each on `/shards/tournament/matches/{id}`'),
      }),
    }),
    included: Type.Array(
      Type.Object({
        ...Identifier('match').properties,
        attributes: Type.Object({ createdAt: Timestamp() }),
      }),
    ),
  },
  {
    description: 'A tournament and its matches of the retention window.',
    examples: [
      {
        data: {
          type: 'tournament',
          id: 'eu-cup5',
          attributes: { createdAt: '2026-11-18T16:00:00Z' },
          relationships: { matches: { data: [{ type: 'match', id: EXAMPLE_MATCH }] } },
        },
        included: [
          { type: 'match', id: EXAMPLE_MATCH, attributes: { createdAt: '2026-11-18T16:05:00Z' } },
        ],
        links: { self: `${EXAMPLE_BASE_URL}/tournaments/eu-cup5` },
        meta: {},
      },
    ],
  },
);
