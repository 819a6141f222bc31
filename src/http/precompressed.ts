/**
 * Helpers of the routes that serve stored bytes themselves — already gzipped or streamed — and
 * therefore opt out of the compression plugin (`compress: false`): reading Accept-Encoding and
 * If-None-Match, and answering errors gzipped when the client accepts it, as every other route does.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorDocument, type ApiError, type MediaType } from './jsonapi.ts';
import type { FastAnswer, FastSource } from './fast-path.ts';

const gzipOnPool = promisify(zlib.gzip);

/**
 * Bodies up to this size are gzipped in the calling thread (about 20–40 µs for a 4 KB document);
 * only larger ones go to libuv's pool. Handing a small body to the pool costs far more than
 * compressing it: about 190 µs of CPU a 4 KB document on the one core a server runs on (a new
 * stream per call, and the pool's threads taking turns with the event loop), so a burst of
 * renderings after a purge took 5–10 times the CPU it needed.
 */
const GZIP_IN_THREAD_MAX_BYTES = 64 * 1024;

/** The gzip of a rendered document: the same bytes whichever thread makes them. */
export async function gzipDocument(body: Buffer): Promise<Buffer> {
  return body.length <= GZIP_IN_THREAD_MAX_BYTES ? zlib.gzipSync(body) : gzipOnPool(body);
}

/**
 * True when the response may be gzip-encoded. The common headers (`gzip, deflate, br`, `*`) are
 * decided without parsing; anything with q-values goes through full negotiation, so `gzip;q=0`
 * is honoured. Coding names are case-insensitive (RFC 9110 §8.4.1): `GZIP` and `Gzip;q=1` count,
 * at the cost of lower-casing only the headers that are not already lower case.
 */
export function acceptsGzip(request: FastifyRequest): boolean {
  return (
    gzipAccepted(request.headers['accept-encoding']) ??
    request.accepts().encoding(['gzip', 'identity']) === 'gzip'
  );
}

/**
 * `acceptsGzip` for the Accept-Encoding values decided without parsing; null for a header with
 * q-values, which needs full negotiation.
 */
export function gzipAccepted(header: string | undefined): boolean | null {
  if (header === undefined || header === '') return false;
  if (header.includes(';')) return null;
  return header.includes('gzip') || header.includes('*') || header.toLowerCase().includes('gzip');
}

/**
 * True when If-None-Match names one of the given entity tags (or is `*`): the client's copy is
 * current. Weak comparison, as RFC 9110 §13.1.2 prescribes for this header.
 */
export function isNotModified(request: FastifyRequest, ...etags: string[]): boolean {
  const header = request.headers['if-none-match'];
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  for (const candidate of header.split(',')) {
    const tag = candidate.trim().replace(/^W\//, '');
    if (etags.includes(tag)) return true;
  }
  return false;
}

/**
 * The entity tag of the gzip form of a representation whose identity form has `etag`: a strong
 * tag names one exact byte sequence, so the two encodings need different tags.
 */
export function gzipEtag(etag: string): string {
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-gzip"` : `${etag}-gzip`;
}

/** Longest max-age of an immutable response when retention is off: one year, in seconds. */
const MAX_AGE_CAP_S = 31_536_000;

/**
 * Cache-Control of an immutable response that stops existing at `expiresAt` (epoch ms; Infinity
 * when kept forever): long-lived, but never cached past the end of the retention window.
 */
export function immutableCacheControl(expiresAt: number, now: number): string {
  const remainingS = Math.max(0, Math.floor((expiresAt - now) / 1000));
  return `public, max-age=${Math.min(remainingS, MAX_AGE_CAP_S)}, immutable`;
}

/** Sends a JSON:API error document, gzipped when the client accepts gzip (errors are small). */
export function sendEncodedError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
): FastifyReply {
  const body = Buffer.from(errorDocument(error));
  reply.code(error.status).headers(error.headers).header('content-type', request.negotiatedType);
  reply.header('vary', 'Accept-Encoding');
  if (!acceptsGzip(request)) return reply.send(body);
  return reply.header('content-encoding', 'gzip').send(zlib.gzipSync(body));
}

/** A constant document rendered once, in both encodings. */
export interface PrecompressedDocument {
  body: Buffer;
  gzip: Buffer;
}

/** Renders a constant document's bytes and their gzip once, at start-up. */
export function precompress(body: string): PrecompressedDocument {
  const bytes = Buffer.from(body);
  return { body: bytes, gzip: zlib.gzipSync(bytes) };
}

/**
 * Sends a constant document with the negotiated Content-Type, gzipped as rendered when the
 * client accepts gzip: for routes marked `compress: false`, which the compression plugin would
 * otherwise gzip again on every request.
 */
export function sendPrecompressed(
  request: FastifyRequest,
  reply: FastifyReply,
  document: PrecompressedDocument,
): FastifyReply {
  reply.header('content-type', request.negotiatedType);
  reply.header('vary', 'Accept-Encoding');
  if (!acceptsGzip(request)) return reply.send(document.body);
  return reply.header('content-encoding', 'gzip').send(document.gzip);
}

/**
 * The source of a constant document served by `sendPrecompressed` at `path` (no query), unkeyed:
 * the same headers in the same order.
 */
export function constantSource(path: string, document: PrecompressedDocument): FastSource {
  // The answers are constant but for the media type: made once per type and encoding.
  const answers = new Map<MediaType, { identity: FastAnswer; gzip: FastAnswer }>();
  const answersOf = (type: MediaType): { identity: FastAnswer; gzip: FastAnswer } => {
    const headers = ['content-type', type, 'vary', 'Accept-Encoding'];
    const made = {
      identity: { route: path, keyed: false, headers, body: document.body },
      gzip: {
        route: path,
        keyed: false,
        headers: [...headers, 'content-encoding', 'gzip'],
        body: document.gzip,
      },
    };
    answers.set(type, made);
    return made;
  };
  return ({ url, gzip, type }) => {
    if (url !== path) return null;
    const made = answers.get(type) ?? answersOf(type);
    return gzip ? made.gzip : made.identity;
  };
}
