import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteContext } from '../route-context.ts';
import { renderSeasonList } from '../../presenters/season-list-document.ts';
import { seasonListsFor } from '../season-lists.ts';
import { requestShard } from '../shards.ts';
import { DOCUMENT_KINDS } from '../../store/document-changes.ts';
import { SeasonListDocument } from '../schemas/season-documents.ts';
import { documentResponse, errorResponse } from '../schemas/responses.ts';

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
    404: errorResponse(404, "Unknown shard 'pc-xx'"),
  },
};

/**
 * `GET /shards/:shard/seasons` (keyed): the platform's season list, also on its platform-region
 * shards. Rendered once per platform and shard spelling until the list is reloaded.
 */
export function seasonRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config, store, clock, documents } = context;
  const seasonLists = seasonListsFor(store, clock);

  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .get(
      '/shards/:shard/seasons',
      { schema: { ...docs, params: ShardParams }, onRequest: context.requireApiKey },
      (request, reply) =>
        documents.serve(request, reply, DOCUMENT_KINDS.seasons, async () => {
          const shard = requestShard(request.params.shard, config);
          const list = await seasonLists.get(shard.platform);
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
