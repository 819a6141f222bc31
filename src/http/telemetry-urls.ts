/**
 * What a telemetry file's URL names — its shard's platform, its asset, the date path of the
 * asset's creation — and the fast path's answer for a file held in memory
 * (src/http/fast-path.ts), both shared with the telemetry route (src/http/routes/telemetry.ts).
 */
import type { Config } from '../config.ts';
import { shardResolver } from '../domain/shards.ts';
import { utcParts } from '../domain/time.ts';
import { TELEMETRY_TITLE } from '../presenters/telemetry-url.ts';
import type { FastSource } from './fast-path.ts';
import type { CachedTelemetry, TelemetryCache } from './telemetry-cache.ts';
import { gzipEtag, immutableCacheControl } from './precompressed.ts';

const FILE_SUFFIX = '-telemetry.json';
const PREFIX = `/telemetry/${TELEMETRY_TITLE}/`;
export const TELEMETRY_ROUTE = `${PREFIX}:shard/:yyyy/:mm/:dd/:hh/:min/:file`;
/** A date path part the fast path takes as it is (anything else goes to the route). */
const DIGITS = /^\d{1,4}$/;

export interface TelemetryParams {
  shard: string;
  yyyy: string;
  mm: string;
  dd: string;
  hh: string;
  min: string;
  file: string;
}

export interface TelemetryUrls {
  /** The platform a URL's shard spelling names, or null for no shard. */
  platformOf(spelling: string): string | null;
  /** The asset id a URL's file name names, or null when the name is no telemetry file's. */
  assetIdOf(file: string): string | null;
  /** True when the URL's shard and date path name this asset. */
  names(params: TelemetryParams, platform: string, assetCreatedAt: number): boolean;
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

export function telemetryUrls(config: Pick<Config, 'shardAliases'>): TelemetryUrls {
  const resolve = shardResolver(config.shardAliases);
  const platformOf = (spelling: string): string | null => resolve(spelling)?.platform ?? null;

  return {
    platformOf,
    assetIdOf: (file) => (file.endsWith(FILE_SUFFIX) ? file.slice(0, -FILE_SUFFIX.length) : null),
    names: (params, platform, assetCreatedAt) =>
      platformOf(params.shard) === platform && datePathMatches(params, assetCreatedAt),
  };
}

/** The fast path's answer: a file in memory, gzip as stored, with the route's headers. */
export function telemetryFastSource(urls: TelemetryUrls, cache: TelemetryCache): FastSource {
  /** Each cached file's header list, handed out while its Cache-Control reads the same. */
  const lists = new WeakMap<CachedTelemetry, { cacheControl: string; list: string[] }>();
  const headersOf = (assetId: string, cached: CachedTelemetry, now: number): string[] => {
    const cacheControl = immutableCacheControl(cached.expiresAt, now);
    const made = lists.get(cached);
    if (made !== undefined && made.cacheControl === cacheControl) return made.list;
    const list = [
      'etag',
      gzipEtag(`"telemetry-${assetId}"`),
      'cache-control',
      cacheControl,
      'vary',
      'Accept-Encoding',
      'content-type',
      'application/json',
      'content-encoding',
      'gzip',
    ];
    lists.set(cached, { cacheControl, list });
    return list;
  };
  return ({ url, gzip, now }) => {
    if (!gzip || !url.startsWith(PREFIX) || url.includes('%') || url.includes('?')) return null;
    const [shard, yyyy, mm, dd, hh, min, file, ...rest] = url.slice(PREFIX.length).split('/');
    if (file === undefined || rest.length > 0) return null;
    const params = { shard: shard!, yyyy: yyyy!, mm: mm!, dd: dd!, hh: hh!, min: min!, file };
    if (![yyyy, mm, dd, hh, min].every((part) => DIGITS.test(part!))) return null;
    const assetId = urls.assetIdOf(file);
    // Looked up only when held: a miss is counted once, by the route it falls through to.
    if (assetId === null || !cache.has(assetId)) return null;
    const cached = cache.get(assetId, now);
    if (cached === undefined || !urls.names(params, cached.platform, cached.assetCreatedAt)) {
      return null;
    }
    const headers = headersOf(assetId, cached, now);
    return { route: TELEMETRY_ROUTE, keyed: false, headers, body: cached.gzip };
  };
}
