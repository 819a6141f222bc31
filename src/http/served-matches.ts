/**
 * The match documents the match route has served, as the bytes it sends: a byte-bounded cache of
 * final documents (those with their telemetry asset, which never change) per shard spelling's
 * variant, the one load in flight per document, and the fast path's answer from the same cache
 * (src/http/fast-path.ts). The route itself (src/http/routes/matches.ts) adds the negotiation,
 * the errors and the upstream read-through.
 */
import zlib from 'node:zlib';
import type { RouteContext } from './route-context.ts';
import type { FastSource } from './fast-path.ts';
import { retentionWindowMs } from '../config.ts';
import { resolveShard, servesPlatform, type ResolvedShard } from '../domain/shards.ts';
import {
  matchDocumentVariantKey,
  type MatchDocumentVariant,
} from '../presenters/match-document.ts';
import { loadMatchDocument } from '../ingest/load-match-document.ts';
import { DocumentCache } from './document-cache.ts';
import { gzipEtag, immutableCacheControl } from './precompressed.ts';
import {
  DOCUMENT_CHANGES,
  documentTagsOf,
  listedFromTag,
  listedHour,
  listedHourOf,
  watchLocalDocumentChanges,
} from '../store/document-changes.ts';

const EMPTY = Buffer.alloc(0);

/** The route template: the access line's and the metrics' route label. */
export const MATCH_ROUTE = '/shards/:shard/matches/:matchId';
/** The fixed parts of a match URL the fast path reads. */
const SHARDS = '/shards/';
const MATCHES = '/matches/';

/** Cache-Control of a match document that will change once more (its telemetry is awaited). */
const REVALIDATE = 'no-cache';

/** One shard spelling's constant part of every answer: the document variant it is rendered in. */
export interface ShardVariant {
  shard: ResolvedShard;
  variant: MatchDocumentVariant;
  /** The variant's key among a match's cached variants, and in the document store. */
  variantKey: string;
  deprecated: boolean;
}

/** A rendered match document as served, with what each answer would otherwise recompute. */
export interface ServedMatch {
  /**
   * The identity bytes: null until a client that does not accept gzip asks (the store keeps
   * gzip only), then the gunzip, kept with the entry.
   */
  body: Buffer | null;
  bodyGzip: Buffer;
  etag: string;
  etagGzip: string;
  /** False for a match of another platform than the shard's: answered 404, its bytes not kept. */
  servable: boolean;
  /** Epoch ms the match was created at. */
  createdAt: number;
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
  /** The fast path's header lists, made on its first answer in each encoding. */
  fast: FastHeaders | null;
}

/** Whole header lists of the fast path's answers, valid with one Content-Type until `until`. */
interface FastHeaders {
  type: string;
  /** Epoch ms: the lists hold a Cache-Control value that is valid until then. */
  until: number;
  gzip: string[] | null;
  identity: string[] | null;
}

/** The variants of one match rendered so far, keyed by variant key; cached as one entry. */
interface CachedMatch {
  variants: Map<string, ServedMatch>;
  bytes: number;
}

export interface ServedMatches {
  /** The variant a shard spelling is answered in; null for a spelling that names no shard. */
  shardVariant(spelling: string): ShardVariant | null;
  /** The cached document of a match in a variant (counted as a cache hit or miss). */
  cached(matchId: string, route: ShardVariant): ServedMatch | undefined;
  /** Reads (or renders) the document once however many requests ask for it meanwhile. */
  load(matchId: string, route: ShardVariant): Promise<ServedMatch | null>;
  /**
   * The headers of an answer before its Content-Type (a 304 has these alone), as a flat list:
   * name, value, name, value, ….
   */
  headers(route: ShardVariant, match: ServedMatch, gzip: boolean, now: number): string[];
  /** The identity bytes of a match, gunzipped on first use and kept with its entry. */
  identity(matchId: string, match: ServedMatch): Buffer;
  /** The fast path's answer for a plain GET of a cached match. */
  source: FastSource;
  /** Stops hearing of purges (the app closes): the process's writers would keep the cache alive. */
  close(): void;
}

export function servedMatches(context: RouteContext): ServedMatches {
  const { config, store } = context;
  const retentionMs = retentionWindowMs(config);
  // Keyed by match id alone: hashing the id the router sliced from the URL is cheaper than
  // building and hashing a composite key on every hit.
  const cache = new DocumentCache<CachedMatch>(config.matchCacheBytes);
  context.metrics?.watchCache('match', cache);
  const loading = new Map<string, Promise<ServedMatch | null>>();
  // Bounded by the shards and aliases there are: unknown spellings are never added.
  const variants = new Map<string, ShardVariant>();

  // A purge announces the hours of the matches it deletes (listedFromTag): the cached matches of
  // those hours are read again — a 404 once their rows are gone — rather than answered until they
  // expire by this instance's clock, which a purge ahead of it would outrun. Heard from this
  // process's writers before they commit, and from the change feed once committed; a feed row
  // that is no list of tags drops every match. A load is kept only when its match's hour is
  // still current by the keyed documents' generations (src/http/document-generations.ts): not
  // announced since the load began, and not announced here and yet to be delivered by the feed
  // (its purge may not have committed when the load read it).
  const { generations } = context.documents;
  function dropPurged(tags: readonly string[] | null): void {
    const hours = new Set<number>();
    for (const tag of tags ?? []) {
      const hour = listedHourOf(tag);
      if (hour !== null) hours.add(hour);
    }
    if (tags !== null && hours.size === 0) return;
    cache.deleteWhere((cached) => {
      if (tags === null) return true;
      for (const match of cached.variants.values()) {
        if (hours.has(listedHour(match.createdAt))) return true;
      }
      return false;
    });
  }
  const unwatchLocal = watchLocalDocumentChanges(dropPurged);
  const unsubscribe = context.changes.subscribe(DOCUMENT_CHANGES, (keys) =>
    dropPurged(keys === 'all' ? null : documentTagsOf(keys)),
  );

  function shardVariant(spelling: string): ShardVariant | null {
    const known = variants.get(spelling);
    if (known !== undefined) return known;
    // `console` too: a match of either console platform is served on it.
    const shard = resolveShard(spelling, config.shardAliases, { combined: true });
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

  function served(
    document: NonNullable<Awaited<ReturnType<typeof loadMatchDocument>>>,
    route: ShardVariant,
  ): ServedMatch {
    // A match asked for on another platform's shard is a 404: remember that, not its bytes.
    const servable = servesPlatform(route.shard, document.platform);
    return {
      body: servable ? null : EMPTY,
      bodyGzip: servable ? document.bodyGzip : EMPTY,
      etag: document.etag,
      etagGzip: gzipEtag(document.etag),
      servable,
      createdAt: document.createdAt,
      expiresAt: document.createdAt + retentionMs,
      final: document.hasTelemetry,
      cacheControl: '',
      cacheControlUntil: 0,
      fast: null,
    };
  }

  function remember(matchId: string, route: ShardVariant, match: ServedMatch): void {
    const cached = cache.peek(matchId) ?? { variants: new Map<string, ServedMatch>(), bytes: 0 };
    if (cached.variants.has(route.variantKey)) return;
    cached.variants.set(route.variantKey, match);
    cached.bytes += match.bodyGzip.length;
    cache.set(matchId, cached, cached.bytes);
  }

  function load(matchId: string, route: ShardVariant): Promise<ServedMatch | null> {
    const key = route.variantKey + matchId;
    let pending = loading.get(key);
    if (pending === undefined) {
      const started = generations.current();
      pending = loadMatchDocument(store, matchId, route.variant)
        .then((document) => {
          if (document === null) return null;
          const match = served(document, route);
          const hour = [listedFromTag(match.createdAt)];
          const kept = generations.isCurrent(started, hour, context.clock.now());
          if (match.final && kept) remember(matchId, route, match);
          return match;
        })
        .finally(() => loading.delete(key));
      loading.set(key, pending);
    }
    return pending;
  }

  function headers(route: ShardVariant, match: ServedMatch, gzip: boolean, now: number): string[] {
    if (!match.final) {
      match.cacheControl = REVALIDATE;
    } else if (now >= match.cacheControlUntil) {
      match.cacheControl = immutableCacheControl(match.expiresAt, now);
      match.cacheControlUntil = now - (now % 1000) + 1000;
    }
    const list = [
      'etag',
      gzip ? match.etagGzip : match.etag,
      'cache-control',
      match.cacheControl,
      'vary',
      'Accept-Encoding',
    ];
    if (route.deprecated) list.push('deprecation', 'true');
    return list;
  }

  /** Gunzipped once (a fraction of a millisecond for a match), counted in its entry from then on. */
  function identity(matchId: string, match: ServedMatch): Buffer {
    const body = zlib.gunzipSync(match.bodyGzip);
    match.body = body;
    const cached = cache.peek(matchId);
    if (cached !== undefined && [...cached.variants.values()].includes(match)) {
      cached.bytes += body.length;
      cache.set(matchId, cached, cached.bytes);
    }
    return body;
  }

  /**
   * The fast path's whole header list for a match: made once per encoding and Content-Type, and
   * again once its Cache-Control (which counts down to the end of retention) is a second old.
   */
  function fastHeaders(
    route: ShardVariant,
    match: ServedMatch,
    gzip: boolean,
    type: string,
    now: number,
  ): string[] {
    let fast = match.fast;
    if (fast === null || now >= fast.until || fast.type !== type) {
      fast = { type, until: 0, gzip: null, identity: null };
      match.fast = fast;
    }
    let list = gzip ? fast.gzip : fast.identity;
    if (list === null) {
      list = headers(route, match, gzip, now);
      list.push('content-type', type);
      if (gzip) {
        list.push('content-encoding', 'gzip');
        fast.gzip = list;
      } else {
        fast.identity = list;
      }
      fast.until = match.cacheControlUntil;
    }
    return list;
  }

  // The plain spelling of the route's URL, answered from the same cache as the route.
  const source: FastSource = ({ url, gzip, type, now }) => {
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
    if (now > match.expiresAt || !match.servable) return null;
    const body = gzip ? match.bodyGzip : match.body;
    if (body === null) return null;
    return {
      route: MATCH_ROUTE,
      keyed: false,
      headers: fastHeaders(route, match, gzip, type, now),
      body,
    };
  };

  return {
    shardVariant,
    cached: (matchId, route) => cache.get(matchId)?.variants.get(route.variantKey),
    load,
    headers,
    identity,
    source,
    close() {
      unwatchLocal();
      unsubscribe();
    },
  };
}
