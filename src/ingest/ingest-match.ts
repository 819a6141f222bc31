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
import { utcParts } from '../domain/time.ts';
import {
  canonicalMatchDocumentVariant,
  matchDocumentVariantKey,
} from '../presenters/match-document.ts';
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
    if (telemetryKey) await deps.blobs.delete(telemetryKey);
    throw error;
  }
  if (status === 'duplicate' && telemetryKey) {
    // Another ingest of the same match won the race; keep the file only if that match uses it.
    const kept = await findTelemetryKey(deps.store.db, match.input.id);
    if (kept !== telemetryKey) await deps.blobs.delete(telemetryKey);
  }
  return { status, matchId: match.input.id };
}

/** The blob key of a telemetry file: `telemetry/<platform>/<yyyy>/<mm>/<dd>/<assetId>-telemetry.json.gz`. */
export function telemetryBlobKey(
  platform: string,
  assetCreatedAt: number,
  assetId: string,
): string {
  const t = utcParts(assetCreatedAt);
  return `telemetry/${platform}/${t.year}/${t.month}/${t.day}/${assetId}-telemetry.json.gz`;
}
