import type { BlobStore } from '../blobs/blob-store.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Store } from '../store/store.ts';

/** What ingest works with, whichever way the data enters (files, HTTP, recordings, the demo). */
export interface IngestDeps {
  store: Store;
  blobs: BlobStore;
  config: Pick<
    Config,
    'publicBaseUrl' | 'telemetryBaseUrl' | 'retentionDays' | 'shardAliases' | 'ingestMaxBytes'
  >;
  clock: Clock;
}

/**
 * What ingesting a match did: `ingested` (new), `attached` (it was stored without telemetry and
 * now has the file), `unchanged` (stored already; nothing changed). `telemetry` tells whether
 * the match has its telemetry file now; `platform` is its canonical platform shard.
 */
export interface IngestResult {
  status: 'ingested' | 'attached' | 'unchanged';
  matchId: string;
  platform: string;
  telemetry: boolean;
}
