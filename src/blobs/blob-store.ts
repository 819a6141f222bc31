/**
 * Where telemetry files live: a directory (directory-blob-store.ts) or S3-compatible object
 * storage (s3-blob-store.ts); open-blob-store.ts picks one from the config. Keys are relative
 * paths: a telemetry file's key is its public URL's path
 * (`bluehole-pubg/<platform>/<yyyy>/<mm>/<dd>/<hh>/<min>/<assetId>-telemetry.json`, see
 * telemetryPath), so a bucket or a CDN can serve it at that URL. Matches stored by earlier
 * versions keep the key recorded with them (`telemetry/<platform>/<yyyy>/<mm>/<dd>/<assetId>-telemetry.json.gz`),
 * read and deleted like any other. Contents are the gzip bytes of a JSON document, stored as
 * given and never changed once written.
 */
import type { Readable } from 'node:stream';

export interface BlobStore {
  /**
   * Stores bytes under a key, whole or not at all (same key = same content). Throws
   * BlobStoreUnavailableError when the storage fails.
   */
  put(key: string, bytes: Buffer): Promise<void>;
  /**
   * A stream of the stored bytes with their size, or null when the key is absent. Throws
   * BlobStoreUnavailableError when the storage fails; the stream itself may still fail midway.
   */
  get(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** Removes a key; absent keys are fine. Throws BlobStoreUnavailableError when the storage fails. */
  delete(key: string): Promise<void>;
}

/**
 * The blob store could not do what was asked — unreachable, timed out, refused our credentials,
 * out of space — as opposed to a key that is simply absent. Callers answer it as a temporary
 * failure (503 with Retry-After, an ingest refused without writing anything); one class so that
 * these failures are easy to tell apart and to count. The message names the operation, the
 * store and the cause for the logs; it is not meant for API clients.
 */
export class BlobStoreUnavailableError extends Error {
  override readonly name = 'BlobStoreUnavailableError';
  constructor(
    readonly operation: 'open' | 'put' | 'get' | 'delete',
    message: string,
  ) {
    super(message);
  }
}
