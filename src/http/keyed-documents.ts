/**
 * The keyed documents (players, stats, mastery, clans, seasons, samples, tournaments), rendered
 * once per change and served as bytes: identity and gzip, compressed once, in a byte-bounded
 * clock-LRU (DOCUMENT_CACHE_MB). A hit costs a Map lookup, a few tag checks and a write.
 *
 * Invalidation. A rendering remembers the tags it was read from (src/store/document-changes.ts)
 * and the cache's generation when it began to read. Every announced tag gets a new generation;
 * a rendering is served only while none of its tags is newer than its start, so a rendering that
 * raced a write is never kept past it. Tags arrive two ways:
 * - from a writer of this process, before its transaction commits: the tag is then also
 *   "pending" — its documents are rendered from the store on every request (which sees the commit
 *   the moment it happens) until the change feed delivers the committed announcement;
 * - from the change feed, every half second: what other processes (and this one) committed.
 * So a document never shows less than the last commit on this instance, and at most one poll
 * interval later on others. A rendering also ends at its own `validUntil` (a listed match leaving
 * the retention window) and at most MAX_AGE_MS after it was made (from half of it on, by URL).
 */
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../clock.ts';
import type { ChangeFeed } from '../store/change-feed.ts';
import type { AppMetrics } from './metrics.ts';
import { documentGenerations, type DocumentGenerations } from './document-generations.ts';
import { DocumentCache } from './document-cache.ts';
import { acceptsGzip, gzipDocument, gzipEtag, isNotModified } from './precompressed.ts';
import type { FastSource } from './fast-path.ts';
import { KeptHeaderLists } from './kept-header-lists.ts';
import { listedFromTag } from '../store/document-changes.ts';

/** What a route renders on a miss. Everything in it must depend on the request URL alone. */
export interface RenderedDocument {
  body: string | Buffer;
  /** Its gzip form when the renderer has one already. */
  bodyGzip?: Buffer;
  /** A strong entity tag of `body`: sent (with its gzip twin) and answered with 304s. */
  etag?: string;
  /** Tags of what it was read from; the kind's coarse tag is added by `serve`. */
  tags: readonly string[];
  /** Headers sent with it, the same for every request of its URL (Deprecation, Vary). */
  headers?: Readonly<Record<string, string>>;
  /** Epoch ms until which clients may cache it: sent as `public, max-age=<seconds left>`. */
  clientFreshUntil?: number;
  /** Epoch ms from which this rendering is out of date by time alone (a match leaves retention). */
  validUntil?: number;
}

/** What a rendering that lists matches takes from the oldest it lists. */
export interface MatchListing {
  /** Its `listedFromTag`, which a purge of that match announces; none when nothing is listed. */
  tags: string[];
  /** Epoch ms from which that match has left the window, and the rendering with it. */
  validUntil: number;
}

/** The MatchListing of a rendering whose oldest listed match was created at `oldestAt` (or none). */
export function matchListing(oldestAt: number | null, retentionMs: number): MatchListing {
  if (oldestAt === null) return { tags: [], validUntil: Infinity };
  // Listed up to its age of exactly the window, as a purge keeps it.
  return { tags: [listedFromTag(oldestAt)], validUntil: oldestAt + retentionMs + 1 };
}

interface CachedDocument {
  body: Buffer;
  /** Null until first wanted when the cache is off (then nothing is compressed needlessly). */
  bodyGzip: Buffer | null;
  tags: readonly string[];
  /** The generation when its reads began. */
  generation: number;
  validUntil: number;
  /** Epoch ms it was rendered at. */
  renderedAt: number;
  headers: [string, string][];
  /** `headers` as the fast path writes them: name, value, name, value, …. */
  flatHeaders: readonly string[];
  varies: boolean;
  etag: string | null;
  etagGzip: string;
  clientFreshUntil: number | null;
  /** Cache-Control value, valid until `cacheControlUntil` (epoch ms, a second boundary). */
  cacheControl: string;
  cacheControlUntil: number;
  /** The route template it was rendered by, and whether that route takes a read key. */
  route: string;
  keyed: boolean;
  /** Rendered while the upstream could not be asked: sent with Age and Warning, never kept. */
  stale: boolean;
  /** The fast path's header lists of this rendering. */
  fastLists: KeptHeaderLists<CachedDocument>;
}

export interface KeyedDocuments {
  /**
   * Answers the request from the rendering of its URL when it is current, else renders it (once
   * however many requests ask meanwhile), keeps and sends it. `kind` is a coarse tag of
   * DOCUMENT_KINDS. Errors thrown by `render` reach the error handler as before (not cached).
   */
  serve(
    request: FastifyRequest,
    reply: FastifyReply,
    kind: string,
    render: () => Promise<RenderedDocument>,
  ): FastifyReply | Promise<FastifyReply>;
  /**
   * Calls `listener` whenever renderings tagged `tag` are dropped (everything counts), so a
   * module keeping its own copies of what they were read from can drop those too.
   */
  watch(tag: string, listener: () => void): void;
  /**
   * Whether what was read since a generation is still current, for caches of other readings
   * (the match cache): the same record of changes the renderings are held to.
   */
  generations: Pick<DocumentGenerations, 'current' | 'isCurrent'>;
  /** Answers a cached, current document outside Fastify (src/http/fast-path.ts). */
  fastSource: FastSource;
  /** Stops listening for changes (the app closes). */
  stop(): void;
}

/** Longest a rendering is served, in ms: bounds what a change made behind the service's back costs. */
const MAX_AGE_MS = 60_000;

/**
 * How long a rendering of `url` is served at most, in ms: from half of MAX_AGE_MS to all of it,
 * fixed per URL (a hash of it). Renderings made at the same moment — every document a purge
 * changed, rendered again by the requests right after it — then end at different moments
 * instead of all together a minute later, when the requests would render them all at once again.
 */
function maxAgeOf(url: string): number {
  let hash = 0x811c9dc5; // FNV-1a, 32 bits
  for (let i = 0; i < url.length; i++) hash = Math.imul(hash ^ url.charCodeAt(i), 0x01000193);
  return Math.round((MAX_AGE_MS / 2) * (1 + (hash >>> 0) / 2 ** 32));
}
/** The Warning of an answer served from the store while the upstream could not be asked. */
export const STALE_WARNING = '110 - "Response is Stale"';
const REVALIDATE_SECOND = 1000;

/** What the documents are read with and invalidated by (the route context has it all). */
export interface KeyedDocumentDeps {
  config: Readonly<Config>;
  clock: Clock;
  changes: ChangeFeed;
  metrics: AppMetrics | null;
  /**
   * Whether the rendering made for `reply` is stale (the upstream could not be asked): its age
   * in ms (null: unknown), or undefined when it is not. A stale rendering is sent with `Age` and
   * `Warning` to every request it answers and never kept, so the next request asks again.
   */
  staleAge?: (reply: FastifyReply) => number | null | undefined;
}

/** The Cache-Control of a rendering that says how long clients may keep it, else null. */
function cacheControlOf(entry: CachedDocument, now: number): string | null {
  if (entry.clientFreshUntil === null) return null;
  if (now >= entry.cacheControlUntil) {
    const maxAge = Math.max(0, Math.floor((entry.clientFreshUntil - now) / 1000));
    entry.cacheControl = `public, max-age=${maxAge}`;
    entry.cacheControlUntil = now - (now % REVALIDATE_SECOND) + REVALIDATE_SECOND;
  }
  return entry.cacheControl;
}

/** A rendering's headers as the fast path sends them (`send`'s, for a 200). */
function fastHeaderList(
  entry: CachedDocument,
  gzip: boolean,
  cacheControl: string | null,
  type: string,
): string[] {
  const list = [...entry.flatHeaders];
  if (cacheControl !== null) list.push('cache-control', cacheControl);
  if (entry.etag !== null) list.push('etag', gzip ? entry.etagGzip : entry.etag);
  list.push('content-type', type);
  if (!gzip) return list;
  if (!entry.varies) list.push('vary', 'accept-encoding');
  list.push('content-encoding', 'gzip');
  return list;
}

/** The one set of keyed documents of an app, shared by its routes. */
export function keyedDocuments(deps: KeyedDocumentDeps): KeyedDocuments {
  const { clock } = deps;
  const enabled = deps.config.documentCacheBytes > 0;
  const cache = new DocumentCache<CachedDocument>(deps.config.documentCacheBytes);
  deps.metrics?.watchCache('document', cache);
  const loading = new Map<string, { generation: number; promise: Promise<CachedDocument> }>();
  const generations = documentGenerations(clock, deps.changes);

  function isCurrent(entry: CachedDocument, now: number): boolean {
    // A clock set back (tests, an operator) finds renderings "from the future": stale too.
    if (now >= entry.validUntil || now < entry.renderedAt) return false;
    return generations.isCurrent(entry.generation, entry.tags, now);
  }

  async function renderEntry(
    request: FastifyRequest,
    reply: FastifyReply,
    kind: string,
    render: () => Promise<RenderedDocument>,
  ): Promise<CachedDocument> {
    const started = generations.current();
    const rendered = await render();
    const body = typeof rendered.body === 'string' ? Buffer.from(rendered.body) : rendered.body;
    const headers = Object.entries(rendered.headers ?? {});
    const staleAge = deps.staleAge?.(reply);
    if (staleAge !== undefined) {
      if (staleAge !== null) headers.push(['age', String(Math.floor(staleAge / 1000))]);
      headers.push(['warning', STALE_WARNING]);
    }
    const etag = rendered.etag ?? null;
    const renderedAt = clock.now();
    return {
      body,
      bodyGzip: rendered.bodyGzip ?? (enabled ? await gzipDocument(body) : null),
      etag,
      etagGzip: etag === null ? '' : gzipEtag(etag),
      tags: [kind, ...rendered.tags],
      generation: started,
      validUntil: Math.min(rendered.validUntil ?? Infinity, renderedAt + maxAgeOf(request.url)),
      renderedAt,
      headers,
      flatHeaders: headers.flat(),
      varies: headers.some(([name]) => name.toLowerCase() === 'vary'),
      clientFreshUntil: rendered.clientFreshUntil ?? null,
      cacheControl: '',
      cacheControlUntil: 0,
      route: request.routeOptions.url ?? request.url,
      keyed: Boolean(request.apiKey),
      stale: staleAge !== undefined,
      fastLists: new KeptHeaderLists(fastHeaderList),
    };
  }

  function load(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    kind: string,
    render: () => Promise<RenderedDocument>,
  ): Promise<CachedDocument> {
    // Joins a rendering under way only if nothing was announced since it began to read.
    const under = loading.get(key);
    if (under !== undefined && under.generation === generations.current()) return under.promise;
    const started = {
      generation: generations.current(),
      promise: renderEntry(request, reply, kind, render)
        .then((entry) => {
          if (enabled && !entry.stale && isCurrent(entry, clock.now())) {
            let bytes = entry.body.length + entry.bodyGzip!.length;
            for (const tag of entry.tags) bytes += tag.length * 2;
            cache.set(key, entry, bytes);
          }
          return entry;
        })
        .finally(() => {
          if (loading.get(key) === started) loading.delete(key);
        }),
    };
    loading.set(key, started);
    return started.promise;
  }

  function send(request: FastifyRequest, reply: FastifyReply, entry: CachedDocument): FastifyReply {
    for (const [name, value] of entry.headers) reply.header(name, value);
    const cacheControl = cacheControlOf(entry, clock.now());
    if (cacheControl !== null) reply.header('cache-control', cacheControl);
    const gzipped = acceptsGzip(request);
    if (entry.etag !== null) {
      reply.header('etag', gzipped ? entry.etagGzip : entry.etag);
      if (isNotModified(request, entry.etag, entry.etagGzip)) return reply.code(304).send();
    }
    reply.header('content-type', request.negotiatedType);
    if (!gzipped) return reply.send(entry.body);
    entry.bodyGzip ??= zlib.gzipSync(entry.body);
    // As the compression plugin answers (it leaves a body with a Content-Encoding alone).
    if (!entry.varies) reply.header('vary', 'accept-encoding');
    return reply.header('content-encoding', 'gzip').send(entry.bodyGzip);
  }

  /** What `send` sends for a 200 (a conditional request is not asked here). */
  const fastSource: FastSource = ({ url, gzip, type, now, identityAsked }) => {
    if (!enabled || !(gzip || identityAsked)) return null;
    // Peeked first: a miss is counted once, by the route it falls through to.
    if (cache.peek(url) === undefined) return null;
    const entry = cache.get(url)!;
    if (!isCurrent(entry, now)) return null;
    const headers = entry.fastLists.get(entry, gzip, cacheControlOf(entry, now), type);
    if (!gzip) return { route: entry.route, keyed: entry.keyed, headers, body: entry.body };
    entry.bodyGzip ??= zlib.gzipSync(entry.body);
    return { route: entry.route, keyed: entry.keyed, headers, body: entry.bodyGzip };
  };

  return {
    fastSource,
    serve(request, reply, kind, render) {
      const key = request.url;
      const cached = enabled ? cache.get(key) : undefined;
      if (cached !== undefined) {
        if (isCurrent(cached, clock.now())) return send(request, reply, cached);
        cache.delete(key);
      }
      return load(request, reply, key, kind, render).then((entry) => send(request, reply, entry));
    },
    watch: generations.watch,
    generations,
    stop: generations.stop,
  };
}
