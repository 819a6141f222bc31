import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteContext } from '../route-context.ts';
import { notFound } from '../jsonapi.ts';
import { upstreamApiError } from '../../upstream/mirror.ts';
import { unstorableCharacter } from '../input-guard.ts';
import { MatchDocument } from '../schemas/match-document.ts';
import {
  IMMUTABLE_HEADERS,
  documentResponse,
  errorResponse,
  notModified,
} from '../schemas/responses.ts';
import { acceptsGzip, isNotModified, sendEncodedError } from '../precompressed.ts';
import {
  MATCH_ROUTE,
  servedMatches,
  type ServedMatch,
  type ShardVariant,
} from '../served-matches.ts';

const schema = {
  summary: 'A match',
  description:
    'A match with its rosters, participants and telemetry asset. No key and no rate limit. The ' +
    'document never changes: it carries a strong ETag and is cacheable until the match leaves ' +
    'the retention window. Tournament matches are on the `tournament` shard; a match of either ' +
    'console platform is also on `console`; a platform-region shard is deprecated here ' +
    '(answered as its platform, with a `Deprecation` header).',
  operationId: 'getMatch',
  tags: ['matches'],
  response: {
    200: documentResponse('The match', MatchDocument, IMMUTABLE_HEADERS),
    304: notModified,
    404: errorResponse(
      404,
      "Unknown shard, no such match on the shard's platform, or the match is past retention",
    ),
  },
};

type MatchRequest = FastifyRequest<{ Params: { shard: string; matchId: string } }>;

/**
 * `GET /shards/:shard/matches/:matchId`: no key, no rate limit. A document with its telemetry
 * asset never changes, so it is served as stored bytes — gzip as stored to clients that accept
 * it — from a byte-bounded cache in front of the store; a hot match costs no query, no JSON work
 * and no compression. A match whose telemetry is still awaited is read from the store on every
 * request instead (one indexed read), so the document with its asset is served by every instance
 * as soon as the file is attached.
 */
export function matchRoutes(app: FastifyInstance, context: RouteContext): void {
  const { clock, mirror } = context;
  const matches = servedMatches(context);
  app.addHook('onClose', async () => matches.close());

  /** A match the store lacks, copied from the upstream (read-through), then loaded. */
  async function fromUpstream(matchId: string, route: ShardVariant): Promise<ServedMatch | null> {
    const copied = await mirror!.matches.fetch(route.shard.spelling, matchId);
    return copied === 'missing' ? null : matches.load(matchId, route);
  }

  function send(
    request: MatchRequest,
    reply: FastifyReply,
    route: ShardVariant,
    match: ServedMatch,
  ): FastifyReply {
    const now = clock.now();
    if (now > match.expiresAt || !match.servable) {
      return sendEncodedError(
        request,
        reply,
        notFound(`No match '${request.params.matchId}' on shard '${route.shard.spelling}'`),
      );
    }
    const gzip = acceptsGzip(request);
    const headers = matches.headers(route, match, gzip, now);
    for (let i = 0; i < headers.length; i += 2) reply.header(headers[i]!, headers[i + 1]);
    if (isNotModified(request, match.etag, match.etagGzip)) return reply.code(304).send();
    reply.header('content-type', request.negotiatedType);
    if (gzip) return reply.header('content-encoding', 'gzip').send(match.bodyGzip);
    return reply.send(match.body ?? matches.identity(request.params.matchId, match));
  }

  // The fast path answers the plain spelling of this route's URL from the same cache, as `send`.
  context.fastPath.add(matches.source);

  app.get(
    MATCH_ROUTE,
    // Checks its id itself, on a cache miss only: a stored id never holds what the guard refuses.
    { compress: false, decompress: false, config: { inputGuard: false }, schema },
    // Not async: a cache hit is answered synchronously, without a promise (returning undefined
    // after send tells Fastify the reply is handled).
    function serveMatch(request: MatchRequest, reply: FastifyReply): Promise<unknown> | undefined {
      const { shard, matchId } = request.params;
      const route = matches.shardVariant(shard);
      if (route === null) {
        sendEncodedError(request, reply, notFound(`Unknown shard '${shard}'`));
        return undefined;
      }
      const cached = matches.cached(matchId, route);
      if (cached !== undefined) {
        send(request, reply, route, cached);
        return undefined;
      }
      const unstorable = unstorableCharacter(matchId);
      if (unstorable !== null) {
        sendEncodedError(
          request,
          reply,
          notFound(`Path parameter 'matchId' contains ${unstorable}; no match has one`),
        );
        return undefined;
      }
      const found = matches.load(matchId, route);
      // Resolves once the reply is sent (a reply is thenable).
      return (mirror ? found.then((match) => match ?? fromUpstream(matchId, route)) : found)
        .then((match) =>
          match === null
            ? sendEncodedError(
                request,
                reply,
                notFound(`No match '${matchId}' on shard '${shard}'`),
              )
            : send(request, reply, route, match),
        )
        .catch((error: unknown) => {
          const answer = upstreamApiError(error);
          if (answer === null) throw error;
          return sendEncodedError(request, reply, answer);
        });
    },
  );
}
