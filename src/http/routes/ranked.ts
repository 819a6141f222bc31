import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteContext } from '../route-context.ts';
import { recordingWins } from '../../domain/recording-precedence.ts';
import { findPlayer } from '../../store/players.ts';
import { findRankedStats } from '../../store/ranked-stats.ts';
import { findRecordedDocument, rankedRecordingId } from '../../store/recorded-documents.ts';
import { renderRankedStats } from '../../presenters/ranked-stats-document.ts';
import { renderRecordedDocument } from '../../presenters/recorded-document.ts';
import { notFound, selfLink } from '../jsonapi.ts';
import { DOCUMENT_KINDS, playerTag } from '../../store/document-changes.ts';
import { seasonListsFor } from '../season-lists.ts';
import { COMBINED_SHARD_REFUSED, enforceShardRule, requestShard } from '../shards.ts';
import { pathOf, readThroughRecorded } from '../../upstream/read-through.ts';
import { RankedStatsDocument } from '../schemas/ranked-document.ts';
import { documentResponse, errorResponse } from '../schemas/responses.ts';

const RankedParams = Type.Object({
  shard: Type.String({ description: 'Platform shard (steam, kakao, psn, xbox or pc-b …).' }),
  accountId: Type.String({ description: 'account.<32 hex>' }),
  seasonId: Type.String({
    description: 'A season of the platform, e.g. division.bro.official.pc-2018-41.',
  }),
});

/**
 * `GET /shards/:shard/players/:accountId/seasons/:seasonId/ranked` (keyed): the player's ranked
 * stats of a season on a platform shard. An unknown season or player is a 404; a known player
 * answers 200 with only the modes they played — none for a season before ranked play (season 7)
 * or without ranked matches, as the real service answers season stats of unplayed seasons. A
 * recorded document is served instead while it is newer (recording-precedence.ts).
 */
export function rankedRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config, store, clock, documents, mirror } = context;
  const seasonLists = seasonListsFor(store, clock);
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  routes.get(
    '/shards/:shard/players/:accountId/seasons/:seasonId/ranked',
    {
      schema: {
        summary: "A player's ranked stats of one season",
        description:
          'The ranked modes the player played that season (none before ranked play began, in ' +
          'season 7); a recorded document is served instead while it is newer. Platform shards only.',
        operationId: 'getRankedStats',
        tags: ['stats'],
        params: RankedParams,
        security: [{ apiKey: [] }],
        response: {
          200: documentResponse('The ranked stats', RankedStatsDocument),
          400: errorResponse(
            400,
            `A platform-region shard (ranked stats are on platform shards), or ${COMBINED_SHARD_REFUSED}`,
          ),
          404: errorResponse(404, 'Unknown shard, season or player'),
        },
      },
      onRequest: context.requireApiKey,
    },
    (request, reply) =>
      documents.serve(request, reply, DOCUMENT_KINDS.players, async () => {
        const { accountId, seasonId } = request.params;
        const shard = requestShard(request.params.shard, config);
        enforceShardRule(shard, { platform: true, region: false }, 'Ranked stats', config);
        const seasons = await seasonLists.get(shard.platform);
        if (!seasons.ids.has(seasonId))
          throw notFound(`Unknown season '${seasonId}' on shard '${shard.spelling}'`);

        const upstreamError = await readThroughRecorded(
          mirror,
          {
            kind: 'rankedplayerstats',
            shard: request.params.shard,
            id: rankedRecordingId(accountId, seasonId),
            path: pathOf(request.url),
          },
          reply,
        );
        const key = { platform: shard.platform, accountId, seasonId };
        const [recording, modes] = await Promise.all([
          findRecordedDocument(
            store.db,
            'rankedplayerstats',
            shard.platform,
            rankedRecordingId(accountId, seasonId),
          ),
          findRankedStats(store.db, key),
        ]);
        const self = selfLink(config.publicBaseUrl, request);
        const newestMatch =
          modes.size === 0 ? null : Math.max(...[...modes.values()].map((s) => s.lastMatchAt));
        const tags = [playerTag(shard.platform, accountId), DOCUMENT_KINDS.seasons];
        if (recording !== null && recordingWins(recording.recordedAt, newestMatch)) {
          return { body: renderRecordedDocument(recording, self), tags };
        }
        if (modes.size === 0 && (await findPlayer(store.db, shard.platform, accountId)) === null) {
          throw upstreamError ?? notFound(`No player '${accountId}' on shard '${shard.spelling}'`);
        }
        return { body: renderRankedStats({ accountId, seasonId, modes }, self), tags };
      }),
  );
}
