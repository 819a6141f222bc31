/**
 * Ingest of one finished match: validate (nothing is stored for invalid input), resolve its
 * season, store the gzip telemetry file, then write the match and everything derived from it
 * in one transaction, the rendered match document included. Ingesting a stored match again
 * changes nothing.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { BlobStore } from '../blobs/blob-store.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import {
  canonicalMatchDocumentVariant,
  matchDocumentVariantKey,
} from '../presenters/match-document.ts';
import { telemetryPath } from '../presenters/telemetry-url.ts';
import { findTelemetryKey, matchExists, writeIngestedMatch } from '../store/ingest-writes.ts';
import { renderStoredDocument } from '../store/match-documents.ts';
import type { Store } from '../store/store.ts';
import { IngestError } from './ingest-error.ts';
import { ingestRows, matchRecord } from './match-rows.ts';
import { resolveMatchSeasons } from './match-seasons.ts';
import { validateMatchInput } from './validate-match.ts';

export interface IngestDeps {
  store: Store;
  blobs: BlobStore;
  config: Pick<Config, 'publicBaseUrl' | 'telemetryBaseUrl' | 'retentionDays' | 'shardAliases'>;
  clock: Clock;
}

export type IngestResult = { status: 'ingested' | 'duplicate'; matchId: string };

export { IngestError };

const gzip = promisify(zlib.gzip);

/**
 * Validates and stores one match. Throws IngestError (and stores nothing) for invalid input;
 * returns 'duplicate' without changing anything when the match id is already stored.
 */
export async function ingestMatch(deps: IngestDeps, input: unknown): Promise<IngestResult> {
  const match = validateMatchInput(input, deps.clock.now(), deps.config);
  const seasons = await resolveMatchSeasons(
    deps.store,
    match.platforms,
    match.createdAt,
    deps.clock,
  );
  if (seasons === null) {
    throw new IngestError(
      'createdAt',
      `no season of ${match.input.platformShard} contains ${match.input.createdAt}`,
    );
  }
  if (await matchExists(deps.store.db, match.input.id)) {
    return { status: 'duplicate', matchId: match.input.id };
  }

  const record = matchRecord(match);
  const variant = canonicalMatchDocumentVariant(match.input.platformShard, deps.config);
  const document = await renderStoredDocument(record, variant);

  let telemetryKey: string | null = null;
  if (match.input.telemetry) {
    telemetryKey = telemetryBlobKey(match.input.platformShard, match.assetCreatedAt, match.assetId);
    await deps.blobs.put(
      telemetryKey,
      await gzip(Buffer.from(JSON.stringify(match.input.telemetry))),
    );
  }

  const rows = ingestRows(match, record, seasons, {
    telemetryKey,
    document: {
      match_id: match.input.id,
      variant: matchDocumentVariantKey(variant),
      etag: document.etag,
      body: document.body,
      body_gzip: document.bodyGzip,
      created_at: match.createdAt,
    },
    now: deps.clock.now(),
  });

  let status: 'ingested' | 'duplicate';
  try {
    status = await writeIngestedMatch(deps.store, rows);
  } catch (error) {
    if (telemetryKey) await discardTelemetry(deps, match.input.id, telemetryKey);
    throw error;
  }
  // Another ingest of the same match won the race: its file is the one kept.
  if (status === 'duplicate' && telemetryKey) {
    await discardTelemetry(deps, match.input.id, telemetryKey);
  }
  return { status, matchId: match.input.id };
}

/**
 * Removes a telemetry file written for a match whose rows were not stored, so no object is left
 * that nothing refers to — unless another ingest of the same match stored the same key
 * meanwhile. Best effort: when the blob store fails as well, the file stays, and the caller's
 * own error is the one reported.
 */
async function discardTelemetry(deps: IngestDeps, matchId: string, key: string): Promise<void> {
  const stored = await findTelemetryKey(deps.store.db, matchId).catch(() => undefined);
  if (stored === key) return;
  await deps.blobs.delete(key).catch(() => undefined);
}

/**
 * The blob key of a new telemetry file: its URL's path (telemetryPath), so that a bucket or CDN
 * at TELEMETRY_BASE_URL serves it. Readers and retention use the key stored with each match
 * (`matches.telemetry_key`), never this function: matches stored by earlier versions keep their
 * `telemetry/<platform>/<yyyy>/<mm>/<dd>/<assetId>-telemetry.json.gz` keys.
 */
export function telemetryBlobKey(
  platform: string,
  assetCreatedAt: number,
  assetId: string,
): string {
  return telemetryPath(platform, assetCreatedAt, assetId);
}
