import type { Db } from './store.ts';

/** Where a match's telemetry file is and what its URL must say. Times are epoch ms. */
export interface TelemetryAsset {
  matchId: string;
  assetId: string;
  /** The match's platform shard. */
  platform: string;
  /** The match's createdAt: retention counts from it. */
  matchCreatedAt: number;
  /** The asset's createdAt: the dated path of the telemetry URL. */
  assetCreatedAt: number;
  /** Blob store key of the gzip file; null when the match came without telemetry. */
  telemetryKey: string | null;
}

/** The telemetry asset with this id (one indexed read, `matches_by_asset`); null when unknown. */
export async function findTelemetryAsset(db: Db, assetId: string): Promise<TelemetryAsset | null> {
  const row = await db
    .selectFrom('matches')
    .select(['id', 'asset_id', 'platform', 'created_at', 'asset_created_at', 'telemetry_key'])
    .where('asset_id', '=', assetId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    matchId: row.id,
    assetId: row.asset_id,
    platform: row.platform,
    matchCreatedAt: row.created_at,
    assetCreatedAt: row.asset_created_at,
    telemetryKey: row.telemetry_key,
  };
}
