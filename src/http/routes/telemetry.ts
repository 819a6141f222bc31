import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteContext } from '../route-context.ts';
import { retentionWindowMs } from '../../config.ts';
import { resolveShard } from '../../domain/shards.ts';
import { utcParts } from '../../domain/time.ts';
import { TELEMETRY_TITLE } from '../../presenters/telemetry-url.ts';
import { findTelemetryAsset, type TelemetryAsset } from '../../store/telemetry.ts';
import { BlobStoreUnavailableError } from '../../blobs/blob-store.ts';
import { blobStoreUnavailable, notFound } from '../jsonapi.ts';
import { Type } from '@sinclair/typebox';
import { TelemetryFile } from '../schemas/match-document.ts';
import { IMMUTABLE_HEADERS, errorResponse, notModified } from '../schemas/responses.ts';
import {
  acceptsGzip,
  gzipEtag,
  immutableCacheControl,
  isNotModified,
  sendEncodedError,
} from '../precompressed.ts';

const FILE_SUFFIX = '-telemetry.json';

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

interface TelemetryParams {
  shard: string;
  yyyy: string;
  mm: string;
  dd: string;
  hh: string;
  min: string;
  file: string;
}

/** True when the URL's date path is the asset's createdAt (UTC), however its numbers are padded. */
function datePathMatches(params: TelemetryParams, assetCreatedAt: number): boolean {
  const t = utcParts(assetCreatedAt);
  return (
    Number(params.yyyy) === Number(t.year) &&
    Number(params.mm) === Number(t.month) &&
    Number(params.dd) === Number(t.day) &&
    Number(params.hh) === Number(t.hour) &&
    Number(params.min) === Number(t.minute)
  );
}

/**
 * `GET /telemetry/bluehole-pubg/:shard/:yyyy/:mm/:dd/:hh/:min/<assetId>-telemetry.json`: the
 * telemetry file a match asset's URL names (REFERENCE §1.1). No key, no Accept negotiation: the
 * file is JSON whatever the client asks for. It is stored gzipped and streamed as stored to
 * clients that accept gzip, and decompressed while streaming for the others. When the blob store
 * fails, a 503 with Retry-After (never cached); a missing file is a 404.
 */
export function telemetryRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config, store, blobs, clock } = context;
  const retentionMs = retentionWindowMs(config);

  /** The asset the URL names, or null when any part of the URL disagrees with what is stored. */
  async function findAsset(params: TelemetryParams): Promise<StoredTelemetry | null> {
    const shard = resolveShard(params.shard, config.shardAliases);
    if (shard === null || !params.file.endsWith(FILE_SUFFIX)) return null;
    const asset = await findTelemetryAsset(store.db, params.file.slice(0, -FILE_SUFFIX.length));
    const { telemetryKey } = asset ?? {};
    if (asset === null || telemetryKey === null || telemetryKey === undefined) return null;
    const expired = clock.now() > asset.matchCreatedAt + retentionMs;
    const urlMatches =
      asset.platform === shard.platform && datePathMatches(params, asset.assetCreatedAt);
    return urlMatches && !expired ? { ...asset, telemetryKey } : null;
  }

  app.get(
    `/telemetry/${TELEMETRY_TITLE}/:shard/:yyyy/:mm/:dd/:hh/:min/:file`,
    { compress: false, decompress: false, config: { negotiate: false }, schema },
    async (request: FastifyRequest<{ Params: TelemetryParams }>, reply: FastifyReply) => {
      const missing = (): FastifyReply =>
        sendEncodedError(request, reply, notFound(`No telemetry file '${request.params.file}'`));
      const asset = await findAsset(request.params);
      if (asset === null) return missing();

      const gzip = acceptsGzip(request);
      const etag = `"telemetry-${asset.assetId}"`;
      const cachingHeaders = {
        etag: gzip ? gzipEtag(etag) : etag,
        'cache-control': immutableCacheControl(asset.matchCreatedAt + retentionMs, clock.now()),
        vary: 'Accept-Encoding',
      };
      if (isNotModified(request, etag, gzipEtag(etag))) {
        return reply.code(304).headers(cachingHeaders).send();
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
      if (blob === null) return missing();
      reply.headers(cachingHeaders);
      reply.header('content-type', 'application/json');
      if (gzip) {
        return reply
          .headers({ 'content-encoding': 'gzip', 'content-length': blob.size })
          .send(blob.stream);
      }
      // A corrupt blob or an aborted download ends in an error here; Fastify then ends the
      // response (a 500 before the first byte, a cut connection after it) and the process lives on.
      const inflated = pipeline(blob.stream, zlib.createGunzip(), (error) => {
        if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') {
          request.log.warn({ err: error, asset: asset.assetId }, 'telemetry stream failed');
        }
      });
      return reply.send(inflated);
    },
  );
}
