/**
 * The stores of a worker thread — the job thread (src/jobs/job-thread.ts) and each ingest worker
 * (src/ingest/prepare-worker.ts): a blob store and a database connection (on PostgreSQL, a pool)
 * of its own, opened from the service's config with the service's timeouts. Unlike the main
 * thread's (src/runtime.ts), they do not wait for the database to come up at start (the
 * service's start did) nor sync seasons: a thread whose store cannot be opened reports it to
 * the run or the match that needed it.
 */
import type { BlobStore } from './blobs/blob-store.ts';
import type { Config } from './config.ts';
import { openBlobStore } from './blobs/open-blob-store.ts';
import { openStore, type Store } from './store/store.ts';

export interface ThreadStores {
  blobs: BlobStore;
  store: Store;
}

/**
 * Opens the blob store, then the database; `schema` is a PostgreSQL schema (tests), `cacheKiB`
 * SQLite's page cache of the connection (default: the serving thread's).
 */
export async function openThreadStores(
  config: Readonly<Config>,
  options: { schema?: string | undefined; cacheKiB?: number } = {},
): Promise<ThreadStores> {
  // The blob store first, as the service opens them: a missing bucket is told before the database.
  const blobs = await openBlobStore(config);
  const store = await openStore(config.databaseUrl, {
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    ...(options.schema ? { schema: options.schema } : {}),
    ...(options.cacheKiB === undefined ? {} : { cacheKiB: options.cacheKiB }),
  });
  return { blobs, store };
}
