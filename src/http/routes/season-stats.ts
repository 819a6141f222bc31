import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteContext } from '../route-context.ts';
import { STANDARD_GAME_MODES, isStandardGameMode } from '../../domain/game-modes.ts';
import { findPlayer, findPlayersByIds } from '../../store/players.ts';
import {
  renderPlayerSeason,
  renderPlayerSeasonList,
} from '../../presenters/season-stats-document.ts';
import { NO_PLAYERS_FOUND, notFound, selfLink } from '../jsonapi.ts';
import { DOCUMENT_KINDS, playerTag } from '../../store/document-changes.ts';
import { PlayerFilterQuery, playerIdsFilter } from '../player-filter.ts';
import { playerSeasonReader } from '../player-season-reader.ts';
import { PlayerSeasonDocument, PlayerSeasonListDocument } from '../schemas/season-documents.ts';
import { documentResponse, errorResponse } from '../schemas/responses.ts';
import { COMBINED_SHARD_REFUSED, requestShard } from '../shards.ts';
import { pathOf, readThroughRecorded } from '../../upstream/read-through.ts';
import {
  seasonStatsListRecordingId,
  seasonStatsRecordingId,
} from '../../ingest/recorded-season-stats.ts';
import { findServedSeasonRecording } from '../../store/stats-recency.ts';
import { renderRecordedDocument } from '../../presenters/recorded-document.ts';

const PlayerSeasonParams = Type.Object({
  shard: Type.String(),
  accountId: Type.String(),
  seasonId: Type.String(),
});
const BatchParams = Type.Object({
  shard: Type.String(),
  seasonId: Type.String(),
  gameMode: Type.String(),
});

const SHARD_RULE =
  'PC seasons after `division.bro.official.2018-09` and lifetime are on the platform shard, ' +
  "earlier PC seasons on a platform-region shard, other platforms' seasons on either; " +
  'lifetime is PC only.';

const playerSeasonDocs = {
  summary: "A player's season or lifetime stats",
  description:
    'Stats of all six standard game modes, zero-filled for modes not played, with the matches ' +
    `counted (at most 32 per mode, retention window, no custom matches). ${SHARD_RULE}`,
  operationId: 'getPlayerSeasonStats',
  tags: ['stats'],
  response: {
    200: documentResponse('The stats', PlayerSeasonDocument),
    400: errorResponse(
      400,
      `The season (or lifetime) is not served on this kind of shard, nor on ${COMBINED_SHARD_REFUSED}`,
    ),
    404: errorResponse(404, 'Unknown shard, season or player'),
  },
};
const batchDocs = {
  summary: 'Season or lifetime stats of several players in one game mode',
  description:
    'Up to ten players by `filter[playerIds]`: each record holds the requested mode only. ' +
    `\`lifetime\` is accepted as the season. ${SHARD_RULE}`,
  operationId: 'getSeasonStatsBatch',
  tags: ['stats'],
  response: {
    200: documentResponse('The stats of the players found', PlayerSeasonListDocument),
    400: errorResponse(
      400,
      `No filter[playerIds] (or filter[playerNames] given), more than 10 ids, a shard of the wrong kind, or ${COMBINED_SHARD_REFUSED}`,
    ),
    404: errorResponse(404, `${NO_PLAYERS_FOUND}, or an unknown shard, season or game mode`),
  },
};

/**
 * `GET /shards/:shard/players/:accountId/seasons/:seasonId` (a season or `lifetime`) and the
 * batch form `GET /shards/:shard/seasons/:seasonId/gameMode/:gameMode/players?filter[playerIds]=…`
 * (keyed). Shard rules per spec §4: PC seasons after 2018-09 and lifetime on the platform shard,
 * earlier seasons on a platform-region shard, other platforms' seasons on either; lifetime on PC only.
 */
export function seasonStatsRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config, store, documents, mirror } = context;
  const { statsScope, playerSeasons } = playerSeasonReader(context);
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  routes.get(
    '/shards/:shard/players/:accountId/seasons/:seasonId',
    {
      schema: { ...playerSeasonDocs, params: PlayerSeasonParams },
      onRequest: context.requireApiKey,
    },
    (request, reply) =>
      documents.serve(request, reply, DOCUMENT_KINDS.players, async () => {
        const { accountId, seasonId } = request.params;
        const shard = requestShard(request.params.shard, config);
        const scope = await statsScope(shard, seasonId);
        const id = seasonStatsRecordingId(accountId, seasonId);
        const upstreamError = await readThroughRecorded(
          mirror,
          { kind: 'playerSeason', shard: request.params.shard, id, path: pathOf(request.url) },
          reply,
        );
        const self = selfLink(config.publicBaseUrl, request);
        const tags = [playerTag(shard.platform, accountId), DOCUMENT_KINDS.seasons];
        const { platform, listSeasonId } = scope;
        const query = {
          kind: 'playerSeason' as const,
          platform,
          accountIds: [accountId],
          id,
          listSeasonId,
        };
        const recording = await findServedSeasonRecording(store.db, query);
        if (recording !== null) return { body: renderRecordedDocument(recording, self), tags };
        const [player, seasons] = await Promise.all([
          findPlayer(store.db, shard.platform, accountId),
          playerSeasons(scope, [accountId], STANDARD_GAME_MODES),
        ]);
        if (!player) {
          throw upstreamError ?? notFound(`No player '${accountId}' on shard '${shard.spelling}'`);
        }
        return {
          body: renderPlayerSeason(seasons.views[0]!, self),
          tags: [...tags, ...seasons.listing.tags],
          validUntil: seasons.listing.validUntil,
        };
      }),
  );

  routes.get(
    '/shards/:shard/seasons/:seasonId/gameMode/:gameMode/players',
    {
      schema: { ...batchDocs, params: BatchParams, querystring: PlayerFilterQuery },
      onRequest: context.requireApiKey,
    },
    (request, reply) =>
      documents.serve(request, reply, DOCUMENT_KINDS.players, async () => {
        const { seasonId, gameMode } = request.params;
        const shard = requestShard(request.params.shard, config);
        if (!isStandardGameMode(gameMode)) {
          throw notFound(
            `Unknown game mode '${gameMode}'; one of ${STANDARD_GAME_MODES.join(', ')}`,
          );
        }
        const accountIds = playerIdsFilter(request.query);
        const scope = await statsScope(shard, seasonId);
        const id = seasonStatsListRecordingId(seasonId, gameMode, accountIds);
        const path = `${pathOf(request.url)}?filter[playerIds]=${accountIds.map(encodeURIComponent).join(',')}`;
        const upstreamError = await readThroughRecorded(
          mirror,
          { kind: 'playerSeasonList', shard: request.params.shard, id, path },
          reply,
        );
        const self = selfLink(config.publicBaseUrl, request);
        // Every id asked for: one not found yet may be a player by the next ingest.
        const tags = [
          ...accountIds.map((id) => playerTag(shard.platform, id)),
          DOCUMENT_KINDS.seasons,
        ];
        const { platform, listSeasonId } = scope;
        const query = { kind: 'playerSeasonList' as const, platform, accountIds, id, listSeasonId };
        const recording = await findServedSeasonRecording(store.db, query);
        if (recording !== null) return { body: renderRecordedDocument(recording, self), tags };
        const [players, seasons] = await Promise.all([
          findPlayersByIds(store.db, shard.platform, accountIds),
          playerSeasons(scope, accountIds, [gameMode]),
        ]);
        const found = seasons.views.filter((view) => players.has(view.accountId));
        if (found.length === 0) throw upstreamError ?? notFound(NO_PLAYERS_FOUND);
        return {
          body: renderPlayerSeasonList(found, self),
          tags: [...tags, ...seasons.listing.tags],
          validUntil: seasons.listing.validUntil,
        };
      }),
  );
}
