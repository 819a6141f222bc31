import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteContext } from '../route-context.ts';
import { recordingWins } from '../../domain/recording-precedence.ts';
import { findClan } from '../../store/clans.ts';
import { findRecordedDocument } from '../../store/recorded-documents.ts';
import { renderClan } from '../../presenters/clan-document.ts';
import { renderRecordedDocument } from '../../presenters/recorded-document.ts';
import { notFound, selfLink } from '../jsonapi.ts';
import { DOCUMENT_KINDS } from '../../store/document-changes.ts';
import { COMBINED_SHARD_REFUSED, enforceShardRule, requestShard } from '../shards.ts';
import { pathOf, readThroughRecorded } from '../../upstream/read-through.ts';
import { ClanDocument } from '../schemas/clan-document.ts';
import { documentResponse, errorResponse } from '../schemas/responses.ts';

const ClanParams = Type.Object({
  shard: Type.String({ description: 'Platform shard (steam, kakao, psn, xbox or pc-b …).' }),
  clanId: Type.String({ description: 'clan.<32 hex>' }),
});

/**
 * `GET /shards/:shard/clans/:clanId` (keyed): a clan of a platform with its member count, or a
 * 404 for a clan the platform does not have. A recorded clan document is served instead while
 * it is newer than the clan's last ingested change (recording-precedence.ts).
 */
export function clanRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config, store, documents, mirror } = context;
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  routes.get(
    '/shards/:shard/clans/:clanId',
    {
      schema: {
        summary: 'A clan',
        description:
          'A clan of the platform with its member count; a recorded clan document is served ' +
          'instead while it is newer than the last ingested change. Platform shards only.',
        operationId: 'getClan',
        tags: ['clans'],
        params: ClanParams,
        security: [{ apiKey: [] }],
        response: {
          200: documentResponse('The clan', ClanDocument),
          400: errorResponse(
            400,
            `A platform-region shard (clans are on platform shards), or ${COMBINED_SHARD_REFUSED}`,
          ),
          404: errorResponse(404, 'Unknown shard, or no such clan on the platform'),
        },
      },
      onRequest: context.requireApiKey,
    },
    (request, reply) =>
      documents.serve(request, reply, DOCUMENT_KINDS.clans, async () => {
        const { clanId } = request.params;
        const shard = requestShard(request.params.shard, config);
        enforceShardRule(shard, { platform: true, region: false }, 'Clans', config);
        const upstreamError = await readThroughRecorded(
          mirror,
          { kind: 'clan', shard: request.params.shard, id: clanId, path: pathOf(request.url) },
          reply,
        );
        const [recording, clan] = await Promise.all([
          findRecordedDocument(store.db, 'clan', shard.platform, clanId),
          findClan(store.db, shard.platform, clanId),
        ]);
        const self = selfLink(config.publicBaseUrl, request);
        if (recording !== null && recordingWins(recording.recordedAt, clan?.updatedAt ?? null)) {
          return { body: renderRecordedDocument(recording, self), tags: [] };
        }
        if (clan === null)
          throw upstreamError ?? notFound(`No clan '${clanId}' on shard '${shard.spelling}'`);
        return { body: renderClan(clan, self), tags: [] };
      }),
  );
}
