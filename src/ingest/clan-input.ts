/**
 * The ingest formats of clans and of a player's status. Like the match format, each TypeBox
 * schema is the validation, the TypeScript type and, exported by `npm run schema`, the JSON
 * Schema shipped in `schemas/` (clan-input, player-status-input). Both carry a `kind`, which is
 * how ingest tells them from matches and recorded documents.
 */
import { Type, type Static } from '@sinclair/typebox';
import { PLATFORMS } from '../domain/shards.ts';

/** Platforms that have players, clans and bans (tournament play has none). */
export const GAME_PLATFORMS = PLATFORMS.filter((platform) => platform !== 'tournament');
export const BAN_TYPES = ['Innocent', 'TemporaryBan', 'PermanentBan'] as const;
/** Most members one clan input may list (real clans hold at most 100). */
export const MAX_CLAN_MEMBERS = 1000;

export const CLAN_ID_PATTERN = '^clan\\.[0-9a-f]{32}$';
export const ACCOUNT_ID_PATTERN = '^account\\.[0-9a-f]{32}$';

const GamePlatform = Type.Union(
  GAME_PLATFORMS.map((p) => Type.Literal(p)),
  { description: 'Platform shard (tournament play has no players).' },
);
const AccountId = Type.String({ pattern: ACCOUNT_ID_PATTERN, description: 'account.<32 hex>' });

export const ClanInput = Type.Object(
  {
    kind: Type.Literal('clan'),
    platform: GamePlatform,
    id: Type.String({ pattern: CLAN_ID_PATTERN, description: 'clan.<32 hex>' }),
    name: Type.String({ minLength: 1, maxLength: 64, description: 'clanName' }),
    tag: Type.String({ minLength: 1, maxLength: 16, description: 'clanTag' }),
    level: Type.Integer({ minimum: 1, maximum: 1000, description: 'clanLevel' }),
    members: Type.Optional(
      Type.Array(AccountId, {
        uniqueItems: true,
        maxItems: MAX_CLAN_MEMBERS,
        description:
          'The whole membership: stored players of the platform. Listed players join (leaving any ' +
          'other clan), unlisted members leave. Absent: membership unchanged.',
      }),
    ),
  },
  { additionalProperties: false, $id: 'ClanInput', title: 'A clan' },
);

export const PlayerStatusInput = Type.Object(
  {
    kind: Type.Literal('playerStatus'),
    platform: GamePlatform,
    accountId: { ...AccountId, description: 'A stored player of the platform.' },
    banType: Type.Optional(Type.Union(BAN_TYPES.map((t) => Type.Literal(t)))),
    clanId: Type.Optional(
      Type.String({
        pattern: `${CLAN_ID_PATTERN}|^$`,
        description: 'A stored clan of the platform, or "" for none.',
      }),
    ),
  },
  {
    additionalProperties: false,
    $id: 'PlayerStatusInput',
    title: "A player's ban type and clan (at least one of them)",
  },
);

export type ClanInput = Static<typeof ClanInput>;
export type PlayerStatusInput = Static<typeof PlayerStatusInput>;
