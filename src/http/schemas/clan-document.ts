/** The clan document (REFERENCE §3.16). */
import { Type } from '@sinclair/typebox';
import { Identifier, SuccessDocument } from './json-api.ts';
import { EXAMPLE_BASE_URL } from './examples.ts';

const EXAMPLE_CLAN = 'clan.5e2d8c1f0a9b4c7d8e6f1a2b3c4d5e6f';

export const ClanDocument = SuccessDocument(
  'ClanDocument',
  {
    data: Type.Object({
      ...Identifier('clan').properties,
      attributes: Type.Object({
        clanName: Type.String(),
        clanTag: Type.String(),
        clanLevel: Type.Integer({ minimum: 1 }),
        clanMemberCount: Type.Integer({ minimum: 0 }),
      }),
    }),
  },
  {
    description: 'A clan with its level and member count.',
    examples: [
      {
        data: {
          type: 'clan',
          id: EXAMPLE_CLAN,
          attributes: {
            clanName: 'Night Owls',
            clanTag: 'OWL',
            clanLevel: 12,
            clanMemberCount: 41,
          },
        },
        links: { self: `${EXAMPLE_BASE_URL}/shards/pc-b/clans/${EXAMPLE_CLAN}` },
        meta: {},
      },
    ],
  },
);
