import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteContext } from '../route-context.ts';
import { retentionWindowMs } from '../../config.ts';
import type { ResolvedShard } from '../../domain/shards.ts';
import { findPlayer, listRecentMatchIds, searchPlayers, type Player } from '../../store/players.ts';
import { renderPlayer, renderPlayerList } from '../../presenters/player-document.ts';
import { NO_PLAYERS_FOUND, notFound, selfLink } from '../jsonapi.ts';
import { PlayerFilterQuery, playerFilter } from '../player-filter.ts';
import { PlayerDocument, PlayerListDocument } from '../schemas/player-documents.ts';
import { documentResponse, errorResponse } from '../schemas/responses.ts';
import {
  COMBINED_SHARD_REFUSED,
  deprecationHeaders,
  platformSpelling,
  requestShard,
} from '../shards.ts';
import { readThroughPlayers } from '../../upstream/player-read-through.ts';
import { matchListing, type RenderedDocument } from '../keyed-documents.ts';
import { DOCUMENT_KINDS, nameTag, playerTag } from '../../store/document-changes.ts';
import { findRecordedDocument } from '../../store/recorded-documents.ts';
import { recordingWins } from '../../domain/recording-precedence.ts';
import { renderRecordedDocument } from '../../presenters/recorded-document.ts';
import { playerListRecordingId } from '../../ingest/recorded-players.ts';

const ShardParams = Type.Object({ shard: Type.String() });
const PlayerParams = Type.Object({ shard: Type.String(), accountId: Type.String() });

const DEPRECATED_REGION =
  'A platform-region shard is deprecated here: answered as its platform (all its regions), ' +
  'with a `Deprecation` header.';

const searchDocs = {
  summary: 'Players by name or account id',
  description:
    'Exactly one of `filter[playerNames]` (case-sensitive) or `filter[playerIds]`, up to ten ' +
    'comma-separated values. Each player lists the matches of the retention window, newest ' +
    `first. ${DEPRECATED_REGION}`,
  operationId: 'searchPlayers',
  tags: ['players'],
};
const playerDocs = {
  summary: 'A player by account id',
  description: `The player with the matches of the retention window, newest first. ${DEPRECATED_REGION}`,
  operationId: 'getPlayer',
  tags: ['players'],
  response: {
    200: documentResponse('The player', PlayerDocument),
    400: errorResponse(400, `Not on ${COMBINED_SHARD_REFUSED}`),
    404: errorResponse(404, 'Unknown shard, or no such player on its platform'),
  },
};

/**
 * `GET /shards/:shard/players?filter[…]` and `GET /shards/:shard/players/:accountId` (keyed).
 * A platform-region shard is deprecated here and answered as its platform (all regions).
 */
export function playerRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config, store, clock, mirror, documents } = context;
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  /**
   * Renders players with their match lists of the retention window: a list, or the one player.
   * Tagged by each player found and by every name or id asked for (`asked`, found or not).
   */
  async function renderPlayers(
    request: FastifyRequest,
    shard: ResolvedShard,
    players: Player[],
    as: 'list' | 'single',
    asked: readonly string[] = [],
  ): Promise<RenderedDocument> {
    const retentionMs = retentionWindowMs(config);
    const since = clock.now() - retentionMs;
    const ids = players.map((player) => player.accountId);
    const { lists, oldestAt } = await listRecentMatchIds(store.db, shard.platform, ids, since);
    const views = players.map((player) => ({
      ...player,
      matchIds: lists.get(player.accountId) ?? [],
    }));
    const spelling = platformSpelling(shard, config);
    const self = selfLink(config.publicBaseUrl, request);
    const body =
      as === 'list'
        ? renderPlayerList(views, spelling, config.publicBaseUrl, self)
        : renderPlayer(views[0]!, spelling, config.publicBaseUrl, self);
    const listing = matchListing(oldestAt, retentionMs);
    return {
      body,
      tags: [...ids.map((id) => playerTag(shard.platform, id)), ...asked, ...listing.tags],
      headers: deprecationHeaders(shard),
      validUntil: listing.validUntil,
    };
  }

  routes.get(
    '/shards/:shard/players',
    {
      schema: {
        ...searchDocs,
        params: ShardParams,
        querystring: PlayerFilterQuery,
        response: {
          200: documentResponse(
            'The players found; names or ids not found are left out',
            PlayerListDocument,
          ),
          400: errorResponse(
            400,
            `Neither or both filters, an empty filter, more than 10 values, or ${COMBINED_SHARD_REFUSED}`,
          ),
          404: errorResponse(404, `${NO_PLAYERS_FOUND}, or an unknown shard`),
        },
      },
      onRequest: context.requireApiKey,
    },
    (request, reply) =>
      documents.serve(request, reply, DOCUMENT_KINDS.players, async () => {
        const shard = requestShard(request.params.shard, config);
        const filter = playerFilter(request.query);
        const lookup = { shard: request.params.shard, platform: shard.platform, ...filter };
        const upstreamError = await readThroughPlayers(mirror, lookup, reply);
        const listId = playerListRecordingId(filter.by, filter.values);
        const [players, recording] = await Promise.all([
          searchPlayers(store.db, shard.platform, filter),
          findRecordedDocument(store.db, 'playerList', shard.platform, listId),
        ]);
        // Every name or id asked for: one not found yet may be a player by the next ingest.
        const tag = filter.by === 'names' ? nameTag : playerTag;
        const asked = filter.values.map((value) => tag(shard.platform, value));
        const newest = players.length === 0 ? null : Math.max(...players.map((p) => p.lastSeenAt));
        if (recording !== null && recordingWins(recording.recordedAt, newest)) {
          const body = renderRecordedDocument(recording, selfLink(config.publicBaseUrl, request));
          const tags = [...players.map((p) => playerTag(shard.platform, p.accountId)), ...asked];
          return { body, tags, headers: deprecationHeaders(shard) };
        }
        if (players.length === 0) throw upstreamError ?? notFound(NO_PLAYERS_FOUND);
        return renderPlayers(request, shard, players, 'list', asked);
      }),
  );

  routes.get(
    '/shards/:shard/players/:accountId',
    { schema: { ...playerDocs, params: PlayerParams }, onRequest: context.requireApiKey },
    (request, reply) =>
      documents.serve(request, reply, DOCUMENT_KINDS.players, async () => {
        const { accountId } = request.params;
        const shard = requestShard(request.params.shard, config);
        const lookup = { shard: request.params.shard, platform: shard.platform, by: 'id' as const };
        const upstreamError = await readThroughPlayers(
          mirror,
          { ...lookup, values: [accountId] },
          reply,
        );
        const [player, recording] = await Promise.all([
          findPlayer(store.db, shard.platform, accountId),
          findRecordedDocument(store.db, 'player', shard.platform, accountId),
        ]);
        if (recording !== null && recordingWins(recording.recordedAt, player?.lastSeenAt ?? null)) {
          const body = renderRecordedDocument(recording, selfLink(config.publicBaseUrl, request));
          const tags = [playerTag(shard.platform, accountId)];
          return { body, tags, headers: deprecationHeaders(shard) };
        }
        if (!player) {
          throw upstreamError ?? notFound(`No player '${accountId}' on shard '${shard.spelling}'`);
        }
        return renderPlayers(request, shard, [player], 'single');
      }),
  );
}
