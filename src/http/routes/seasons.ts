import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteContext } from '../route-context.ts';
import { renderSeasonList } from '../../presenters/season-list-document.ts';
import { seasonListsFor } from '../season-lists.ts';
import { COMBINED_SHARD_REFUSED, requestShard } from '../shards.ts';
import { DOCUMENT_KINDS } from '../../store/document-changes.ts';
import { SeasonListDocument } from '../schemas/season-documents.ts';
import { documentResponse, errorResponse } from '../schemas/responses.ts';
import { renderRecordedDocument } from '../../presenters/recorded-document.ts';
import { pathOf, readThroughList } from '../../upstream/read-through.ts';

const ShardParams = Type.Object({ shard: Type.String() });

const docs = {
  summary: "A platform's seasons",
  description:
    'Every season of the platform, oldest first; exactly one is current. Also on its ' +
    'platform-region shards. Cacheable for a day; the list changes about every two months.',
  operationId: 'listSeasons',
  tags: ['seasons'],
  response: {
    200: documentResponse('The season list', SeasonListDocument),
    400: errorResponse(400, `Not on ${COMBINED_SHARD_REFUSED}`),
    404: errorResponse(404, "Unknown shard 'pc-xx'"),
  },
};

/**
 * `GET /shards/:shard/seasons` (keyed): the platform's season list, also on its platform-region
 * shards. Rendered once per platform and shard spelling until the list is reloaded. With an
 * upstream (UPSTREAM_URL), the upstream's list as recorded; this service's own list only while
 * none is recorded and the upstream cannot say.
 */
export function seasonRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config, store, clock, documents, mirror } = context;
  const seasonLists = seasonListsFor(store, clock);

  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .get(
      '/shards/:shard/seasons',
      { schema: { ...docs, params: ShardParams }, onRequest: context.requireApiKey },
      (request, reply) =>
        documents.serve(request, reply, DOCUMENT_KINDS.seasons, async () => {
          const shard = requestShard(request.params.shard, config);
          const { recording, upstreamError } = await readThroughList(
            { mirror, store },
            {
              kind: 'seasonList',
              shard: shard.spelling,
              platform: shard.platform,
              id: shard.spelling,
              path: pathOf(request.url),
            },
            reply,
          );
          if (recording !== null) {
            const self = `${config.publicBaseUrl}/shards/${shard.spelling}/seasons`;
            return { body: renderRecordedDocument(recording, self), tags: [] };
          }
          const list = await seasonLists.get(shard.platform);
          if (upstreamError !== null && list.seasons.length === 0) throw upstreamError;
          let body = list.documents.get(shard.spelling);
          if (body === undefined) {
            const self = `${config.publicBaseUrl}/shards/${shard.spelling}/seasons`;
            body = Buffer.from(renderSeasonList(list.seasons, list.current?.id ?? null, self));
            list.documents.set(shard.spelling, body);
          }
          const now = clock.now();
          const clientFreshUntil = now + seasonLists.clientMaxAge(list, now) * 1000;
          return { body, tags: [], clientFreshUntil, validUntil: list.validUntil };
        }),
    );
}
