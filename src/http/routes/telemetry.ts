import { Readable, pipeline } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteContext } from '../route-context.ts';
import { retentionWindowMs } from '../../config.ts';
import { findTelemetryAsset, type TelemetryAsset } from '../../store/telemetry.ts';
import { BlobStoreUnavailableError } from '../../blobs/blob-store.ts';
import { blobStoreUnavailable, notFound } from '../jsonapi.ts';
import { upstreamApiError } from '../../upstream/upstream-errors.ts';
import { TelemetryCache, type CachedTelemetry } from '../telemetry-cache.ts';
import { Type } from '@sinclair/typebox';
import { TelemetryFile } from '../schemas/match-document.ts';
import { IMMUTABLE_HEADERS, errorResponse, notModified } from '../schemas/responses.ts';
import {
  TELEMETRY_ROUTE,
  telemetryFastSource,
  telemetryUrls,
  type TelemetryParams,
} from '../telemetry-urls.ts';
import {
  acceptsGzip,
  gzipEtag,
  immutableCacheControl,
  isNotModified,
  sendEncodedError,
} from '../precompressed.ts';

const schema = {
  summary: "A match's telemetry file",
  description:
    "The file a match asset's `URL` names: a JSON array of events. No key, no rate limit, and " +
    'no content negotiation (it is JSON whatever Accept says). Stored gzipped: sent as stored ' +
    'with `Content-Encoding: gzip` when accepted, decompressed on the fly otherwise.',
  operationId: 'getTelemetry',
  tags: ['telemetry'],
  response: {
    200: {
      description: 'The telemetry events',
      headers: {
        ETag: IMMUTABLE_HEADERS.ETag,
        'Cache-Control': IMMUTABLE_HEADERS['Cache-Control'],
      },
      content: {
        'application/json': {
          schema: Type.Ref(TelemetryFile),
          example: (TelemetryFile.examples as unknown[])[0],
        },
      },
    },
    304: notModified,
    404: errorResponse(404, 'No such telemetry file, or its match is past retention'),
    500: errorResponse(500, 'The stored file is corrupt'),
  },
};

/** An asset whose telemetry file is stored. */
type StoredTelemetry = TelemetryAsset & { telemetryKey: string };

type TelemetryRequest = FastifyRequest<{ Params: TelemetryParams }>;

/**
 * `GET /telemetry/bluehole-pubg/:shard/:yyyy/:mm/:dd/:hh/:min/<assetId>-telemetry.json`: the
 * telemetry file a match asset's URL names (REFERENCE §1.1). No key, no Accept negotiation: the
 * file is JSON whatever the client asks for. It is stored gzipped and sent as stored to clients
 * that accept gzip, and decompressed while streaming for the others. A hot file is answered from
 * memory (TELEMETRY_CACHE_MB, see telemetry-cache.ts) without a query; a cold one is streamed
 * from the blob store. When the blob store fails, a 503 with Retry-After (never cached); a
 * missing file is a 404.
 */
export function telemetryRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config, store, blobs, clock, mirror } = context;
  const retentionMs = retentionWindowMs(config);
  const cache = new TelemetryCache(config.telemetryCacheBytes);
  context.metrics?.watchCache('telemetry', cache.documents);
  const urls = telemetryUrls(config);
  const { assetIdOf } = urls;

  /** The asset the URL names, or null when any part of the URL disagrees with what is stored. */
  async function findAsset(params: TelemetryParams): Promise<StoredTelemetry | null> {
    const assetId = assetIdOf(params.file);
    if (urls.platformOf(params.shard) === null || assetId === null) return null;
    const asset = await findTelemetryAsset(store.db, assetId);
    const { telemetryKey } = asset ?? {};
    if (asset === null || telemetryKey === null || telemetryKey === undefined) return null;
    const expired = clock.now() > asset.matchCreatedAt + retentionMs;
    const urlMatches = urls.names(params, asset.platform, asset.assetCreatedAt);
    return urlMatches && !expired ? { ...asset, telemetryKey } : null;
  }

  const missing = (request: TelemetryRequest, reply: FastifyReply): FastifyReply =>
    sendEncodedError(request, reply, notFound(`No telemetry file '${request.params.file}'`));

  /**
   * Sets the caching headers of the file of `assetId`, and answers 304 when the client's copy is
   * current (then true: the reply is sent).
   */
  function cachingHeaders(
    request: TelemetryRequest,
    reply: FastifyReply,
    assetId: string,
    expiresAt: number,
    gzip: boolean,
  ): boolean {
    const etag = `"telemetry-${assetId}"`;
    const etagGzip = gzipEtag(etag);
    reply.header('etag', gzip ? etagGzip : etag);
    reply.header('cache-control', immutableCacheControl(expiresAt, clock.now()));
    reply.header('vary', 'Accept-Encoding');
    if (!isNotModified(request, etag, etagGzip)) return false;
    reply.code(304).send();
    return true;
  }

  /** Sends gzip bytes as they are, or decompressed while streaming. */
  function sendFile(
    request: TelemetryRequest,
    reply: FastifyReply,
    stream: Readable,
    size: number,
    gzip: boolean,
  ): FastifyReply {
    reply.header('content-type', 'application/json');
    if (gzip) {
      return reply.headers({ 'content-encoding': 'gzip', 'content-length': size }).send(stream);
    }
    // A corrupt file or an aborted download ends in an error here; Fastify then ends the
    // response (a 500 before the first byte, a cut connection after it) and the process lives on.
    const inflated = pipeline(stream, zlib.createGunzip(), (error) => {
      if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') {
        request.log.warn({ err: error, file: request.params.file }, 'telemetry stream failed');
      }
    });
    return reply.send(inflated);
  }

  /** Answers from memory: no query, no blob store. */
  function sendCached(request: TelemetryRequest, reply: FastifyReply, file: CachedTelemetry): void {
    const gzip = acceptsGzip(request);
    const assetId = assetIdOf(request.params.file)!;
    if (cachingHeaders(request, reply, assetId, file.expiresAt, gzip)) return;
    if (gzip) {
      reply.header('content-type', 'application/json');
      reply.header('content-encoding', 'gzip').send(file.gzip);
      return;
    }
    const stream = Readable.from(file.gzip, { objectMode: false });
    sendFile(request, reply, stream, file.gzip.length, false);
  }

  /**
   * With an upstream: the file of a match archived without it, fetched now (read-through).
   * True when it is stored since.
   */
  async function fetchMissingFile(params: TelemetryParams): Promise<boolean> {
    const assetId = assetIdOf(params.file);
    const asset = assetId === null ? null : await findTelemetryAsset(store.db, assetId);
    if (mirror === null || asset === null || asset.telemetryKey !== null) return false;
    return (await mirror.matches.fetch(params.shard, asset.matchId)) === 'stored';
  }

  async function sendStored(request: TelemetryRequest, reply: FastifyReply): Promise<FastifyReply> {
    let asset = await findAsset(request.params);
    if (asset === null && mirror !== null) {
      try {
        if (await fetchMissingFile(request.params)) asset = await findAsset(request.params);
      } catch (error) {
        const answer = upstreamApiError(error);
        if (answer === null) throw error;
        return sendEncodedError(request, reply, answer);
      }
    }
    if (asset === null) return missing(request, reply);
    const expiresAt = asset.matchCreatedAt + retentionMs;
    const gzip = acceptsGzip(request);
    const etag = `"telemetry-${asset.assetId}"`;
    if (isNotModified(request, etag, gzipEtag(etag))) {
      cachingHeaders(request, reply, asset.assetId, expiresAt, gzip);
      return reply;
    }

    let blob: Awaited<ReturnType<typeof blobs.get>>;
    try {
      blob = await blobs.get(asset.telemetryKey);
    } catch (error) {
      if (!(error instanceof BlobStoreUnavailableError)) throw error;
      request.log.warn({ err: error, asset: asset.assetId }, 'telemetry storage unavailable');
      reply.header('cache-control', 'no-store'); // a CDN must not keep the outage
      return sendEncodedError(request, reply, blobStoreUnavailable());
    }
    if (blob === null) return missing(request, reply);
    cachingHeaders(request, reply, asset.assetId, expiresAt, gzip);
    const tap = cache.tap(blob.size, asset.assetId, {
      platform: asset.platform,
      assetCreatedAt: asset.assetCreatedAt,
      expiresAt,
    });
    const stream =
      tap === null
        ? blob.stream
        : pipeline(blob.stream, tap, () => {
            // Errors reach the response through the stream it reads.
          });
    return sendFile(request, reply, stream, blob.size, gzip);
  }

  // The fast path answers a file in memory, gzip as stored, with `sendCached`'s headers.
  context.fastPath.add(telemetryFastSource(urls, cache));

  app.get(
    TELEMETRY_ROUTE,
    { compress: false, decompress: false, config: { negotiate: false }, schema },
    // Not async: a file in memory is answered synchronously, without a promise (returning
    // undefined after send tells Fastify the reply is handled).
    function serveTelemetry(
      request: TelemetryRequest,
      reply: FastifyReply,
    ): Promise<FastifyReply> | undefined {
      const assetId = assetIdOf(request.params.file);
      const cached = assetId === null ? undefined : cache.get(assetId, clock.now());
      if (cached === undefined) return sendStored(request, reply);
      if (!urls.names(request.params, cached.platform, cached.assetCreatedAt)) {
        missing(request, reply);
        return undefined;
      }
      sendCached(request, reply, cached);
      return undefined;
    },
  );
}
