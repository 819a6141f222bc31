/** Player documents (REFERENCE §3.2, §3.3): a player and the matches of the retention window. */
import { Type } from '@sinclair/typebox';
import { Identifier, ResourceLinks, SuccessDocument, ToMany } from './json-api.ts';
import { EXAMPLE_ACCOUNT, EXAMPLE_BASE_URL, EXAMPLE_MATCH, EXAMPLE_MATCH_2 } from './examples.ts';

const Player = Type.Object({
  ...Identifier('player').properties,
  attributes: Type.Object({
    name: Type.String({ description: 'In-game name, case-sensitive' }),
    stats: Type.Null(),
    titleId: Type.Literal('pubg'),
    shardId: Type.String({ description: 'The platform shard, spelled as the request spelled it' }),
    patchVersion: Type.Literal(''),
    banType: Type.Union(
      ['Innocent', 'TemporaryBan', 'PermanentBan'].map((value) => Type.Literal(value)),
    ),
    clanId: Type.String({ description: '`clan.<32 hex>`, or empty without a clan' }),
  }),
  relationships: Type.Object({
    assets: Type.Object(
      { data: Type.Array(Type.Unknown(), { maxItems: 0 }) },
      { description: 'Always empty' },
    ),
    matches: ToMany('match', 'Matches of the retention window, newest first'),
  }),
  links: ResourceLinks,
});

const examplePlayer = {
  type: 'player',
  id: EXAMPLE_ACCOUNT,
  attributes: {
    name: 'SlyFox_42',
    stats: null,
    titleId: 'pubg',
    shardId: 'pc-b',
    patchVersion: '',
    banType: 'Innocent',
    clanId: '',
  },
  relationships: {
    assets: { data: [] },
    matches: {
      data: [
        { type: 'match', id: EXAMPLE_MATCH },
        { type: 'match', id: EXAMPLE_MATCH_2 },
      ],
    },
  },
  links: { self: `${EXAMPLE_BASE_URL}/shards/pc-b/players/${EXAMPLE_ACCOUNT}`, schema: '' },
};

export const PlayerListDocument = SuccessDocument(
  'PlayerListDocument',
  { data: Type.Array(Player, { minItems: 1, maxItems: 10 }) },
  {
    description: 'The players found (an array even for one); names not found are left out.',
    examples: [
      {
        data: [examplePlayer],
        links: { self: `${EXAMPLE_BASE_URL}/shards/pc-b/players?filter[playerNames]=SlyFox_42` },
        meta: {},
      },
    ],
  },
);

export const PlayerDocument = SuccessDocument(
  'PlayerDocument',
  { data: Player },
  {
    description: 'One player.',
    examples: [
      {
        data: examplePlayer,
        links: { self: `${EXAMPLE_BASE_URL}/shards/pc-b/players/${EXAMPLE_ACCOUNT}` },
        meta: {},
      },
    ],
  },
);
