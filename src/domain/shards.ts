/**
 * Shards: the spec's platform and platform-region names, which region belongs to which
 * platform, and how a shard spelled in a request path (canonical or an operator alias) resolves.
 */

export const PLATFORMS = ['pc-a', 'pc-b', 'console-a', 'console-b', 'tournament'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** Platforms whose players have PC season rules, lifetime stats and leaderboards. */
export const PC_PLATFORMS: readonly Platform[] = ['pc-a', 'pc-b'];

/** Every platform-region shard of the spec and the platform its matches and players belong to. */
export const REGION_PLATFORM: Readonly<Record<string, Platform>> = Object.freeze({
  'pc-as': 'pc-b',
  'pc-eu': 'pc-b',
  'pc-jp': 'pc-b',
  'pc-krjp': 'pc-b',
  'pc-na': 'pc-b',
  'pc-oc': 'pc-b',
  'pc-ru': 'pc-b',
  'pc-sa': 'pc-b',
  'pc-sea': 'pc-b',
  'pc-a': 'pc-a',
  'pc-tournament': 'tournament',
  'console-a-as': 'console-a',
  'console-a-eu': 'console-a',
  'console-a-na': 'console-a',
  'console-a-oc': 'console-a',
  'console-b-as': 'console-b',
  'console-b-eu': 'console-b',
  'console-b-na': 'console-b',
  'console-b-oc': 'console-b',
  'console-b-sa': 'console-b',
});

export const REGIONS = Object.keys(REGION_PLATFORM);

/** The regions of one platform, in the order of the spec's table. */
export function regionsOf(platform: Platform): string[] {
  return REGIONS.filter((region) => REGION_PLATFORM[region] === platform);
}

export function isPlatform(value: string): value is Platform {
  return (PLATFORMS as readonly string[]).includes(value);
}

export function isRegion(value: string): boolean {
  return Object.hasOwn(REGION_PLATFORM, value);
}

export function isPcPlatform(platform: Platform): boolean {
  return PC_PLATFORMS.includes(platform);
}

/**
 * The vendor spellings that published client libraries send, mapped to the spec's names. They
 * are the default `SHARD_ALIASES`, so an unmodified client works by changing only its base URL.
 */
export const VENDOR_SHARD_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  steam: 'pc-b',
  kakao: 'pc-a',
  psn: 'console-a',
  xbox: 'console-b',
  'pc-kakao': 'pc-a',
  'psn-as': 'console-a-as',
  'psn-eu': 'console-a-eu',
  'psn-na': 'console-a-na',
  'psn-oc': 'console-a-oc',
  'xbox-as': 'console-b-as',
  'xbox-eu': 'console-b-eu',
  'xbox-na': 'console-b-na',
  'xbox-oc': 'console-b-oc',
  'xbox-sa': 'console-b-sa',
});

/**
 * Shards that address several platforms at once. The real service's `console` is both console
 * platforms together: its clients fetch console matches, samples (only there) and mastery on it
 * (REFERENCE §1.2, ENUMS §1). The spec names no such shard; here it spans the spec's
 * `console-a` and `console-b`, and only the endpoints that take it accept it.
 */
export const COMBINED_SHARDS: Readonly<Record<string, readonly Platform[]>> = Object.freeze({
  console: Object.freeze(['console-a', 'console-b'] as const),
});

/** A shard as a request named it, with what it means. */
export interface ResolvedShard {
  /** The segment exactly as the request spelled it; responses echo this spelling. */
  spelling: string;
  /** The spec's name the spelling stands for (or a combined shard's name). */
  canonical: string;
  /**
   * The platform whose data the shard addresses; for a combined shard the first of its
   * platforms, which only code that reads `platforms` may be given.
   */
  platform: Platform;
  /** Every platform whose data the shard addresses: `platform` alone, or a combined shard's. */
  platforms: readonly Platform[];
  /** True when the canonical name is a platform shard (`pc-a` is both a platform and a region). */
  isPlatform: boolean;
  /** True when the canonical name is a platform-region shard. */
  isRegion: boolean;
  /** True for a shard of COMBINED_SHARDS (also a platform shard). */
  isCombined: boolean;
}

/**
 * Resolves a shard path segment. Aliases map to canonical names first; returns null for a
 * segment that is neither a shard nor an alias of one. A combined shard (COMBINED_SHARDS) is
 * resolved only when `combined` is asked for; otherwise it is no shard, as for every reader
 * that knows one platform per shard (recorded documents, telemetry paths, the mirror).
 */
export function resolveShard(
  spelling: string,
  aliases: Readonly<Record<string, string>>,
  options: { combined?: boolean } = {},
): ResolvedShard | null {
  const canonical = Object.hasOwn(aliases, spelling) ? aliases[spelling]! : spelling;
  if (Object.hasOwn(COMBINED_SHARDS, canonical)) {
    if (options.combined !== true) return null;
    const platforms = COMBINED_SHARDS[canonical]!;
    return {
      spelling,
      canonical,
      platform: platforms[0]!,
      platforms,
      isPlatform: true,
      isRegion: false,
      isCombined: true,
    };
  }
  const platformShard = isPlatform(canonical);
  const regionShard = isRegion(canonical);
  if (!platformShard && !regionShard) return null;
  const platform = platformShard ? (canonical as Platform) : REGION_PLATFORM[canonical]!;
  return {
    spelling,
    canonical,
    platform,
    platforms: [platform],
    isPlatform: platformShard,
    isRegion: regionShard,
    isCombined: false,
  };
}

/** True when `platform`'s data is served on the shard: its own, or one a combined shard spans. */
export function servesPlatform(shard: ResolvedShard, platform: string): boolean {
  return shard.platforms.some((served) => served === platform);
}

/**
 * The platform under which recordings of documents asked for on a shard are kept
 * (src/upstream/mirror-documents.ts): its platform, or a combined shard's own name, so what was
 * recorded on `console` is what `console` serves.
 */
export function recordedPlatform(shard: ResolvedShard): string {
  return shard.isCombined ? shard.canonical : shard.platform;
}

/**
 * `resolveShard` with these aliases, remembering each spelling that names a shard: what a hot
 * path resolves on every request. Bounded by the shards and aliases there are, since a spelling
 * that names none is not kept.
 */
export function shardResolver(
  aliases: Readonly<Record<string, string>>,
): (spelling: string) => ResolvedShard | null {
  const known = new Map<string, ResolvedShard>();
  return (spelling) => {
    const remembered = known.get(spelling);
    if (remembered !== undefined) return remembered;
    const shard = resolveShard(spelling, aliases);
    if (shard !== null) known.set(spelling, shard);
    return shard;
  };
}

/**
 * The spelling of a canonical shard as the client knows it: a response to a request made with
 * an alias names shards by that client's vocabulary (`steam` for `pc-b`, `psn-eu` for …). A
 * combined shard is the vendor's own word, so its clients get the aliases (`psn`, `xbox`).
 */
export function spellShard(
  canonical: string,
  requested: ResolvedShard,
  aliases: Readonly<Record<string, string>>,
): string {
  if (requested.spelling === requested.canonical && !requested.isCombined) return canonical;
  if (canonical === requested.canonical) return requested.spelling;
  for (const [alias, target] of Object.entries(aliases)) {
    if (target === canonical) return alias;
  }
  return canonical;
}
