import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Store } from '../store/store.ts';
import type { ChangeFeed } from '../store/change-feed.ts';
import {
  API_KEY_CHANGES,
  findApiKeyByHash,
  hashApiKey,
  type ApiKey,
  type ApiKeyScope,
} from '../store/api-keys.ts';
import { ApiError, unauthorized } from './jsonapi.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified key of a request to a keyed endpoint. */
    apiKey: ApiKey | null;
  }
}

/**
 * How long a verified (or refused) key is trusted without asking the store again, in ms. A
 * revocation arrives through the change feed within a second; the TTL only bounds what a
 * change made behind the service's back (an UPDATE by hand) can cost.
 */
const CACHE_TTL_MS = 30_000;
const CACHE_MAX_ENTRIES = 10_000;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The onRequest hook of keyed endpoints, and its cache read synchronously by the fast path. */
export type ApiKeyGuard = onRequestAsyncHookHandler & {
  cachedKey(authorization: string | undefined): ApiKey | null;
};

/** 403 for a valid key of the other scope: the key is fine, just not for this endpoint. */
const wrongScope = (scope: ApiKeyScope): ApiError =>
  new ApiError(
    403,
    'Forbidden',
    scope === 'ingest'
      ? 'This endpoint takes an API key with the ingest scope'
      : 'An ingest key cannot read; use a key with the read scope',
  );

/**
 * Builds the onRequest hook of keyed endpoints: `Authorization: Bearer <key>` must name a stored,
 * unrevoked key, or the request ends with 401 — and a key of `scope`, or it ends with 403.
 * Lookups are cached so a busy key costs one hash per request rather than a query; a revoked key
 * is dropped from the cache as soon as the change feed delivers its revocation.
 */
export function apiKeyGuard(
  store: Store,
  clock: Clock,
  changes: ChangeFeed,
  scope: ApiKeyScope = 'read',
): ApiKeyGuard {
  const cache = new Map<string, { key: ApiKey | null; until: number }>();
  changes.subscribe(API_KEY_CHANGES, (ids) => {
    if (ids === 'all') return cache.clear();
    // A revoked key leaves the cache; so does every "unknown key" answer, since a key created
    // meanwhile may be one of them (the feed names ids, and unknown keys have none).
    const changed = new Set(ids);
    for (const [hash, entry] of cache) {
      if (entry.key === null || changed.has(entry.key.id)) cache.delete(hash);
    }
  });

  async function lookup(hash: string): Promise<ApiKey | null> {
    const now = clock.now();
    const cached = cache.get(hash);
    if (cached && cached.until > now) return cached.key;
    const key = await findApiKeyByHash(store.db, hash);
    if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(hash, { key, until: now + CACHE_TTL_MS });
    return key;
  }

  async function requireApiKey(request: FastifyRequest) {
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match) throw unauthorized();
    const key = await lookup(hashApiKey(match[1]!));
    if (!key || key.revokedAt !== null) throw unauthorized();
    if (key.scope !== scope) throw wrongScope(scope);
    request.apiKey = key;
  }

  /**
   * The hashes of the Authorization values `cachedKey` accepted: a SHA-256 per request is a few
   * percent of a cached answer. Only accepted values are kept (an unknown key adds nothing), at
   * most CACHE_MAX_ENTRIES; the answer still comes from `cache`, so a revocation counts at once.
   */
  const hashes = new Map<string, string>();

  function hashOf(authorization: string): string | null {
    const known = hashes.get(authorization);
    if (known !== undefined) return known;
    const match = BEARER.exec(authorization);
    return match ? hashApiKey(match[1]!) : null;
  }

  /** The key the guard would accept, when its answer is cached and current; else null. */
  function cachedKey(authorization: string | undefined): ApiKey | null {
    if (authorization === undefined) return null;
    const hash = hashOf(authorization);
    if (hash === null) return null;
    const cached = cache.get(hash);
    if (cached === undefined || cached.until <= clock.now()) return null;
    const key = cached.key;
    if (key === null || key.revokedAt !== null || key.scope !== scope) return null;
    if (!hashes.has(authorization)) {
      if (hashes.size >= CACHE_MAX_ENTRIES) hashes.clear();
      hashes.set(authorization, hash);
    }
    return key;
  }

  return Object.assign(requireApiKey, { cachedKey });
}
