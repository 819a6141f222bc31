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
 * the retention window) and at most MAX_AGE_MS after it was made.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../clock.ts';
import type { ChangeFeed } from '../store/change-feed.ts';
import type { AppMetrics } from './metrics.ts';
import {
  DOCUMENT_CHANGES,
  documentTagsOf,
  watchLocalDocumentChanges,
} from '../store/document-changes.ts';
import { DocumentCache } from './document-cache.ts';
import { acceptsGzip } from './precompressed.ts';

const gzip = promisify(zlib.gzip);

/** What a route renders on a miss. Everything in it must depend on the request URL alone. */
export interface RenderedDocument {
  body: string | Buffer;
  /** Tags of what it was read from; the kind's coarse tag is added by `serve`. */
  tags: readonly string[];
  /** Headers sent with it, the same for every request of its URL (Deprecation, Vary). */
  headers?: Readonly<Record<string, string>>;
  /** Epoch ms until which clients may cache it: sent as `public, max-age=<seconds left>`. */
  clientFreshUntil?: number;
  /** Epoch ms from which this rendering is out of date by time alone (a match leaves retention). */
  validUntil?: number;
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
  varies: boolean;
  clientFreshUntil: number | null;
  /** Cache-Control value, valid until `cacheControlUntil` (epoch ms, a second boundary). */
  cacheControl: string;
  cacheControlUntil: number;
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
}

/** Longest a rendering is served, in ms: bounds what a change made behind the service's back costs. */
const MAX_AGE_MS = 60_000;
/** How long a tag announced here stays pending when the feed never delivers it (a rollback), ms. */
const PENDING_MS = 60_000;
/** Tags remembered with their generation before all are forgotten (and every rendering with them). */
const MAX_TAGS = 200_000;

const REVALIDATE_SECOND = 1000;

/** What the documents are read with and invalidated by (the route context has it all). */
export interface KeyedDocumentDeps {
  config: Readonly<Config>;
  clock: Clock;
  changes: ChangeFeed;
  metrics: AppMetrics | null;
}

/** The one set of keyed documents of an app, shared by its routes. */
export function keyedDocuments(deps: KeyedDocumentDeps): KeyedDocuments {
  const { clock } = deps;
  const enabled = deps.config.documentCacheBytes > 0;
  const cache = new DocumentCache<CachedDocument>(deps.config.documentCacheBytes);
  deps.metrics?.watchCache('document', cache);
  const loading = new Map<string, { generation: number; promise: Promise<CachedDocument> }>();
  let generation = 0;
  /** Renderings that began before it are stale (everything changed, or tags were forgotten). */
  let floor = 0;
  const tagGenerations = new Map<string, number>();
  /** Tags announced by this process and not yet delivered by the feed, with when they lapse. */
  const pending = new Map<string, number>();

  function invalidate(tags: readonly string[]): void {
    generation++;
    if (tagGenerations.size + tags.length > MAX_TAGS) {
      tagGenerations.clear();
      floor = generation;
      return;
    }
    for (const tag of tags) tagGenerations.set(tag, generation);
  }

  watchLocalDocumentChanges((tags) => {
    const until = clock.now() + PENDING_MS;
    for (const tag of tags) pending.set(tag, until);
    invalidate(tags);
  });
  deps.changes.subscribe(DOCUMENT_CHANGES, (keys) => {
    if (keys === 'all') {
      floor = ++generation;
      return;
    }
    const tags = documentTagsOf(keys);
    if (tags === null) {
      floor = ++generation;
      return;
    }
    for (const tag of tags) pending.delete(tag);
    invalidate(tags);
  });

  function isPending(tag: string, now: number): boolean {
    const until = pending.get(tag);
    if (until === undefined) return false;
    if (until > now) return true;
    pending.delete(tag);
    return false;
  }

  function isCurrent(entry: CachedDocument, now: number): boolean {
    // A clock set back (tests, an operator) finds renderings "from the future": stale too.
    if (entry.generation < floor || now >= entry.validUntil || now < entry.renderedAt) {
      return false;
    }
    for (const tag of entry.tags) {
      if ((tagGenerations.get(tag) ?? 0) > entry.generation) return false;
      if (pending.size > 0 && isPending(tag, now)) return false;
    }
    return true;
  }

  async function renderEntry(
    kind: string,
    render: () => Promise<RenderedDocument>,
  ): Promise<CachedDocument> {
    const started = generation;
    const rendered = await render();
    const body = typeof rendered.body === 'string' ? Buffer.from(rendered.body) : rendered.body;
    const headers = Object.entries(rendered.headers ?? {});
    const renderedAt = clock.now();
    return {
      body,
      bodyGzip: enabled ? await gzip(body) : null,
      tags: [kind, ...rendered.tags],
      generation: started,
      validUntil: Math.min(rendered.validUntil ?? Infinity, renderedAt + MAX_AGE_MS),
      renderedAt,
      headers,
      varies: headers.some(([name]) => name.toLowerCase() === 'vary'),
      clientFreshUntil: rendered.clientFreshUntil ?? null,
      cacheControl: '',
      cacheControlUntil: 0,
    };
  }

  function load(
    key: string,
    kind: string,
    render: () => Promise<RenderedDocument>,
  ): Promise<CachedDocument> {
    // Joins a rendering under way only if nothing was announced since it began to read.
    const under = loading.get(key);
    if (under !== undefined && under.generation === generation) return under.promise;
    const started = {
      generation,
      promise: renderEntry(kind, render)
        .then((entry) => {
          if (enabled && isCurrent(entry, clock.now())) {
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
    if (entry.clientFreshUntil !== null) {
      const now = clock.now();
      if (now >= entry.cacheControlUntil) {
        const maxAge = Math.max(0, Math.floor((entry.clientFreshUntil - now) / 1000));
        entry.cacheControl = `public, max-age=${maxAge}`;
        entry.cacheControlUntil = now - (now % REVALIDATE_SECOND) + REVALIDATE_SECOND;
      }
      reply.header('cache-control', entry.cacheControl);
    }
    reply.header('content-type', request.negotiatedType);
    if (!acceptsGzip(request)) return reply.send(entry.body);
    entry.bodyGzip ??= zlib.gzipSync(entry.body);
    // As the compression plugin answers (it leaves a body with a Content-Encoding alone).
    if (!entry.varies) reply.header('vary', 'accept-encoding');
    return reply.header('content-encoding', 'gzip').send(entry.bodyGzip);
  }

  return {
    serve(request, reply, kind, render) {
      const key = request.url;
      const cached = enabled ? cache.get(key) : undefined;
      if (cached !== undefined) {
        if (isCurrent(cached, clock.now())) return send(request, reply, cached);
        cache.delete(key);
      }
      return load(key, kind, render).then((entry) => send(request, reply, entry));
    },
  };
}
