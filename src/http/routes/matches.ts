import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteContext } from '../route-context.ts';
import { retentionWindowMs } from '../../config.ts';
import { resolveShard, type ResolvedShard } from '../../domain/shards.ts';
import {
  matchDocumentVariantKey,
  type MatchDocumentVariant,
} from '../../presenters/match-document.ts';
import { loadMatchDocument } from '../../ingest/load-match-document.ts';
import { DocumentCache } from '../document-cache.ts';
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
import {
  acceptsGzip,
  gzipEtag,
  immutableCacheControl,
  isNotModified,
  sendEncodedError,
} from '../precompressed.ts';

const EMPTY = Buffer.alloc(0);

const schema = {
  summary: 'A match',
  description:
    'A match with its rosters, participants and telemetry asset. No key and no rate limit. The ' +
    'document never changes: it carries a strong ETag and is cacheable until the match leaves ' +
    'the retention window. Tournament matches are on the `tournament` shard; a platform-region ' +
    'shard is deprecated here (answered as its platform, with a `Deprecation` header).',
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

/** One shard spelling's constant part of every answer: the document variant it is rendered in. */
interface ShardVariant {
  shard: ResolvedShard;
  variant: MatchDocumentVariant;
  /** The variant's key among a match's cached variants, and in the document store. */
  variantKey: string;
  deprecated: boolean;
}

/** A rendered match document as served, with what each answer would otherwise recompute. */
interface ServedMatch {
  /**
   * The identity bytes: null until a client that does not accept gzip asks (the store keeps
   * gzip only), then the gunzip, kept with the entry.
   */
  body: Buffer | null;
  bodyGzip: Buffer;
  etag: string;
  etagGzip: string;
  platform: string;
  /** Epoch ms after which the match is past retention (Infinity: kept forever). */
  expiresAt: number;
  /**
   * False while the telemetry file is on its way: the document (without an asset) will change
   * once, so it is neither cached here nor marked immutable for clients.
   */
  final: boolean;
  /** Cache-Control value, valid until `cacheControlUntil` (epoch ms). */
  cacheControl: string;
  cacheControlUntil: number;
}

/** The variants of one match rendered so far, keyed by variant key; cached as one entry. */
interface CachedMatch {
  variants: Map<string, ServedMatch>;
  bytes: number;
}

type MatchRequest = FastifyRequest<{ Params: { shard: string; matchId: string } }>;

const MATCH_ROUTE = '/shards/:shard/matches/:matchId';
/** The fixed parts of a match URL the fast path reads. */
const SHARDS = '/shards/';
const MATCHES = '/matches/';

/** Cache-Control of a match document that will change once more (its telemetry is awaited). */
const REVALIDATE = 'no-cache';

/**
 * `GET /shards/:shard/matches/:matchId`: no key, no rate limit. A document with its telemetry
 * asset never changes, so it is served as stored bytes — gzip as stored to clients that accept
 * it — from a byte-bounded cache in front of the store; a hot match costs no query, no JSON work
 * and no compression. A match whose telemetry is still awaited is read from the store on every
 * request instead (one indexed read), so the document with its asset is served by every instance
 * as soon as the file is attached.
 */
export function matchRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config, store, clock, mirror } = context;
  const retentionMs = retentionWindowMs(config);
  // Keyed by match id alone: hashing the id the router sliced from the URL is cheaper than
  // building and hashing a composite key on every hit.
  const cache = new DocumentCache<CachedMatch>(config.matchCacheBytes);
  context.metrics?.watchCache('match', cache);
  const loading = new Map<string, Promise<ServedMatch | null>>();
  // Bounded by the shards and aliases there are: unknown spellings are never added.
  const variants = new Map<string, ShardVariant>();

  function shardVariant(spelling: string): ShardVariant | null {
    const known = variants.get(spelling);
    if (known !== undefined) return known;
    const shard = resolveShard(spelling, config.shardAliases);
    if (shard === null) return null;
    const variant: MatchDocumentVariant = {
      shard,
      shardAliases: config.shardAliases,
      publicBaseUrl: config.publicBaseUrl,
      telemetryBaseUrl: config.telemetryBaseUrl,
    };
    const entry = {
      shard,
      variant,
      variantKey: matchDocumentVariantKey(variant),
      deprecated: !shard.isPlatform,
    };
    variants.set(spelling, entry);
    return entry;
  }

  /** Reads (or renders) the document once however many requests ask for it meanwhile. */
  function load(key: string, matchId: string, route: ShardVariant): Promise<ServedMatch | null> {
    let pending = loading.get(key);
    if (pending === undefined) {
      pending = loadMatchDocument(store, matchId, route.variant)
        .then((document) => {
          if (document === null) return null;
          // A match asked for on another platform's shard is a 404: remember that, not its bytes.
          const servable = document.platform === route.shard.platform;
          const served: ServedMatch = {
            body: servable ? null : EMPTY,
            bodyGzip: servable ? document.bodyGzip : EMPTY,
            etag: document.etag,
            etagGzip: gzipEtag(document.etag),
            platform: document.platform,
            expiresAt: document.createdAt + retentionMs,
            final: document.hasTelemetry,
            cacheControl: '',
            cacheControlUntil: 0,
          };
          if (!served.final) return served;
          const cached = cache.peek(matchId) ?? {
            variants: new Map<string, ServedMatch>(),
            bytes: 0,
          };
          if (!cached.variants.has(route.variantKey)) {
            cached.variants.set(route.variantKey, served);
            cached.bytes += served.bodyGzip.length;
            cache.set(matchId, cached, cached.bytes);
          }
          return served;
        })
        .finally(() => loading.delete(key));
      loading.set(key, pending);
    }
    return pending;
  }

  /** A match the store lacks, copied from the upstream (read-through), then loaded. */
  async function fromUpstream(
    key: string,
    matchId: string,
    route: ShardVariant,
  ): Promise<ServedMatch | null> {
    const copied = await mirror!.matches.fetch(route.shard.spelling, matchId);
    return copied === 'missing' ? null : load(key, matchId, route);
  }

  function send(
    request: MatchRequest,
    reply: FastifyReply,
    route: ShardVariant,
    match: ServedMatch,
  ): FastifyReply {
    const now = clock.now();
    if (now > match.expiresAt || match.platform !== route.shard.platform) {
      return sendEncodedError(
        request,
        reply,
        notFound(`No match '${request.params.matchId}' on shard '${route.shard.spelling}'`),
      );
    }
    const gzip = acceptsGzip(request);
    const headers = matchHeaders(route, match, gzip, now);
    for (let i = 0; i < headers.length; i += 2) reply.header(headers[i]!, headers[i + 1]);
    if (isNotModified(request, match.etag, match.etagGzip)) return reply.code(304).send();
    reply.header('content-type', request.negotiatedType);
    if (gzip) return reply.header('content-encoding', 'gzip').send(match.bodyGzip);
    return reply.send(match.body ?? identityOf(request.params.matchId, match));
  }

  /**
   * The headers of a match answer before its Content-Type (a 304 has these alone), as a flat
   * list: name, value, name, value, ….
   */
  function matchHeaders(
    route: ShardVariant,
    match: ServedMatch,
    gzip: boolean,
    now: number,
  ): string[] {
    if (!match.final) {
      match.cacheControl = REVALIDATE;
    } else if (now >= match.cacheControlUntil) {
      match.cacheControl = immutableCacheControl(match.expiresAt, now);
      match.cacheControlUntil = now - (now % 1000) + 1000;
    }
    const headers = [
      'etag',
      gzip ? match.etagGzip : match.etag,
      'cache-control',
      match.cacheControl,
      'vary',
      'Accept-Encoding',
    ];
    if (route.deprecated) headers.push('deprecation', 'true');
    return headers;
  }

  // The fast path answers the plain spelling of this route's URL from the same cache, as `send`.
  context.fastPath.add(({ url, gzip, type, now }) => {
    // `/shards/<shard>/matches/<id>`, read by position (no array of parts per request).
    if (!url.startsWith(SHARDS)) return null;
    const shardEnd = url.indexOf('/', SHARDS.length);
    if (shardEnd === -1 || !url.startsWith(MATCHES, shardEnd)) return null;
    const idStart = shardEnd + MATCHES.length;
    if (url.includes('/', idStart) || url.includes('%') || url.includes('?')) return null;
    const route = variants.get(url.slice(SHARDS.length, shardEnd));
    if (route === undefined) return null;
    const matchId = url.slice(idStart);
    // Peeked first: a miss is counted once, by the route it falls through to.
    const match = cache.peek(matchId)?.variants.get(route.variantKey);
    if (match === undefined) return null;
    cache.get(matchId);
    if (now > match.expiresAt || match.platform !== route.shard.platform) return null;
    const body = gzip ? match.bodyGzip : match.body;
    if (body === null) return null;
    const headers = matchHeaders(route, match, gzip, now);
    headers.push('content-type', type);
    if (gzip) headers.push('content-encoding', 'gzip');
    return { route: MATCH_ROUTE, keyed: false, headers, body };
  });

  /**
   * The identity bytes of a match served so far in gzip only: gunzipped once (a fraction of a
   * millisecond for a match) and counted in its cache entry from then on.
   */
  function identityOf(matchId: string, match: ServedMatch): Buffer {
    const body = zlib.gunzipSync(match.bodyGzip);
    match.body = body;
    const cached = cache.peek(matchId);
    if (cached !== undefined && [...cached.variants.values()].includes(match)) {
      cached.bytes += body.length;
      cache.set(matchId, cached, cached.bytes);
    }
    return body;
  }

  app.get(
    MATCH_ROUTE,
    // Checks its id itself, on a cache miss only: a stored id never holds what the guard refuses.
    { compress: false, decompress: false, config: { inputGuard: false }, schema },
    // Not async: a cache hit is answered synchronously, without a promise (returning undefined
    // after send tells Fastify the reply is handled).
    function serveMatch(request: MatchRequest, reply: FastifyReply): Promise<unknown> | undefined {
      const { shard, matchId } = request.params;
      const route = shardVariant(shard);
      if (route === null) {
        sendEncodedError(request, reply, notFound(`Unknown shard '${shard}'`));
        return undefined;
      }
      const cached = cache.get(matchId)?.variants.get(route.variantKey);
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
      const key = route.variantKey + matchId;
      const found = load(key, matchId, route);
      // Resolves once the reply is sent (a reply is thenable).
      return (mirror ? found.then((match) => match ?? fromUpstream(key, matchId, route)) : found)
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
