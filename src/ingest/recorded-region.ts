/**
 * The region of a recorded match, which documents since late 2018 no longer name: a
 * platform-region `shardId`, the platform's only region (pc-a, tournament), the telemetry's
 * LogMatchDefinition `MatchId`, the shard segment of the telemetry URL, or the caller's choice —
 * the first of them that names a region of the match's platform.
 */
import {
  REGION_PLATFORM,
  regionsOf,
  resolveShard,
  type Platform,
  type ResolvedShard,
} from '../domain/shards.ts';
import { IngestError } from './ingest-error.ts';
import { isObject } from '../domain/json-object.ts';

/** Throws IngestError (field `regionShard`) when no source names a region of the platform. */
export function recordedMatchRegion(
  shard: ResolvedShard,
  sources: {
    telemetry: unknown[] | undefined;
    assetUrl: string | undefined;
    region: string | undefined;
    aliases: Readonly<Record<string, string>>;
  },
): string {
  const { platform } = shard;
  return (
    (shard.isRegion ? shard.canonical : null) ??
    onlyRegion(platform) ??
    regionFromTelemetry(sources.telemetry, platform, sources.aliases) ??
    regionFromAssetUrl(sources.assetUrl, platform, sources.aliases) ??
    regionFromOption(sources.region, platform, sources.aliases)
  );
}

/** The region of a platform that has only one (pc-a, tournament). */
function onlyRegion(platform: Platform): string | null {
  const regions = regionsOf(platform);
  return regions.length === 1 ? regions[0]! : null;
}

/** A canonical region of `platform` spelled by `spelling` (canonical or alias), or null. */
function regionOf(
  spelling: string,
  platform: Platform,
  aliases: Readonly<Record<string, string>>,
): string | null {
  const shard = resolveShard(spelling, aliases);
  return shard !== null && shard.isRegion && REGION_PLATFORM[shard.canonical] === platform
    ? shard.canonical
    : null;
}

/**
 * The region a telemetry `MatchId` names: one of its dot-separated parts, read as a region
 * suffix (`eu` → pc-eu on PC, console-a-eu on console-a …) or a whole region shard.
 */
function regionFromTelemetry(
  telemetry: unknown[] | undefined,
  platform: Platform,
  aliases: Readonly<Record<string, string>>,
): string | null {
  const definition = telemetry?.find((e) => isObject(e) && e._T === 'LogMatchDefinition');
  const matchId = isObject(definition) ? definition.MatchId : undefined;
  if (typeof matchId !== 'string') return null;
  const parts = matchId
    .replace(/^match\.bro\.[a-z]+\./, '')
    .split('.')
    .slice(1);
  for (const part of parts) {
    for (const candidate of [
      part,
      `pc-${part}`,
      `${platform}-${part}`,
      `psn-${part}`,
      `xbox-${part}`,
    ]) {
      const region = regionOf(candidate, platform, aliases);
      if (region !== null) return region;
    }
  }
  return null;
}

/** The region in the shard segment of a recorded telemetry URL (`…/bluehole-pubg/pc-na/2019/…`). */
function regionFromAssetUrl(
  url: string | undefined,
  platform: Platform,
  aliases: Readonly<Record<string, string>>,
): string | null {
  if (url === undefined) return null;
  const segment = /\/bluehole-pubg\/([a-z0-9-]+)\/\d{4}\//.exec(url)?.[1];
  return segment === undefined ? null : regionOf(segment, platform, aliases);
}

function regionFromOption(
  region: string | undefined,
  platform: Platform,
  aliases: Readonly<Record<string, string>>,
): string {
  if (region === undefined) {
    throw new IngestError(
      'regionShard',
      `the document names no region of ${platform} and neither does its telemetry; pass the region the match was played in (e.g. ${regionsOf(platform)[0]})`,
    );
  }
  const resolved = regionOf(region, platform, aliases);
  if (resolved === null) {
    throw new IngestError(
      'regionShard',
      `${region} is not a region of ${platform} (one of ${regionsOf(platform).join(', ')})`,
    );
  }
  return resolved;
}
