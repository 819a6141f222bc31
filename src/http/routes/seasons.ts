import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteContext } from '../route-context.ts';
import { renderSeasonList } from '../../presenters/season-list-document.ts';
import { sendDocument } from '../jsonapi.ts';
import { seasonListsFor } from '../season-lists.ts';
import { requestShard } from '../shards.ts';

const ShardParams = Type.Object({ shard: Type.String() });

/**
 * `GET /shards/:shard/seasons` (keyed): the platform's season list, also on its platform-region
 * shards. Rendered once per platform and shard spelling until the list is reloaded.
 */
export function seasonRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config, store, clock } = context;
  const seasonLists = seasonListsFor(store, clock);

  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .get(
      '/shards/:shard/seasons',
      { schema: { params: ShardParams }, onRequest: context.requireApiKey },
      async (request, reply) => {
        const shard = requestShard(request.params.shard, config);
        const list = await seasonLists.get(shard.platform);
        let body = list.documents.get(shard.spelling);
        if (body === undefined) {
          const self = `${config.publicBaseUrl}/shards/${shard.spelling}/seasons`;
          body = Buffer.from(renderSeasonList(list.seasons, list.current?.id ?? null, self));
          list.documents.set(shard.spelling, body);
        }
        reply.header(
          'cache-control',
          `public, max-age=${seasonLists.clientMaxAge(list, clock.now())}`,
        );
        return sendDocument(request, reply, body);
      },
    );
}
