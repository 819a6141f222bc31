import { utcParts } from '../domain/time.ts';

/** The title segment of telemetry paths; the real service's files all live under it. */
export const TELEMETRY_TITLE = 'bluehole-pubg';

/**
 * The public URL of a match's telemetry file, laid out as the real CDN does:
 * `<base>/bluehole-pubg/<shard>/<YYYY>/<MM>/<DD>/<HH>/<mm>/<assetId>-telemetry.json`, the date
 * path being the asset's createdAt (epoch ms) in UTC, zero-padded.
 */
export function telemetryUrl(
  telemetryBaseUrl: string,
  shardSpelling: string,
  assetCreatedAt: number,
  assetId: string,
): string {
  const t = utcParts(assetCreatedAt);
  return `${telemetryBaseUrl}/${TELEMETRY_TITLE}/${shardSpelling}/${t.year}/${t.month}/${t.day}/${t.hour}/${t.minute}/${assetId}-telemetry.json`;
}
