import { utcParts } from '../domain/time.ts';

/** The title segment of telemetry paths; the real service's files all live under it. */
export const TELEMETRY_TITLE = 'bluehole-pubg';

/**
 * The path of a match's telemetry file, laid out as the real CDN does:
 * `bluehole-pubg/<platform>/<YYYY>/<MM>/<DD>/<HH>/<mm>/<assetId>-telemetry.json`, the date path
 * being the asset's createdAt (epoch ms) in UTC, zero-padded. It is both the file's blob key and
 * its URL's path under TELEMETRY_BASE_URL, so a bucket or CDN serves the file at the URL a match
 * document names. The platform is canonical (`pc-b`, never an alias such as `steam`): one file
 * has one URL, however the match was asked for.
 */
export function telemetryPath(platform: string, assetCreatedAt: number, assetId: string): string {
  const t = utcParts(assetCreatedAt);
  return `${TELEMETRY_TITLE}/${platform}/${t.year}/${t.month}/${t.day}/${t.hour}/${t.minute}/${assetId}-telemetry.json`;
}

/** The public URL of a match's telemetry file: TELEMETRY_BASE_URL, then telemetryPath. */
export function telemetryUrl(
  telemetryBaseUrl: string,
  platform: string,
  assetCreatedAt: number,
  assetId: string,
): string {
  return `${telemetryBaseUrl}/${telemetryPath(platform, assetCreatedAt, assetId)}`;
}
