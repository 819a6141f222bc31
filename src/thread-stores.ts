/**
 * The stores of a worker — the job thread (src/jobs/job-thread.ts) and each ingest worker,
 * thread or process (src/ingest/prepare-tasks.ts): a blob store and a database connection (on
 * PostgreSQL, a pool) of its own, opened from the service's config with the service's timeouts.
 * Unlike the main thread's (src/runtime.ts), they do not wait for the database to come up at
 * start (the service's start did) nor sync seasons: a worker whose store cannot be opened
 * reports it to the run or the match that needed it.
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
 * SQLite's page cache of a worker thread's connection, KiB (the serving thread keeps 64 MiB).
 * Jobs read ranges once or a few times in a row, and an ingest worker touches a few hundred pages
 * of a match's players once; a few MiB hold either, and the rest stays in the kernel's cache of
 * the file. A thread keeps its full cache, unused, until it ends. At a million players a
 * leaderboard rebuild took as long with 8 MiB as with 64 (3.7–4.4 s either way), and the process
 * then held 270–295 MB instead of 340–355 MB; 120 matches posted to `serve` on the demo store
 * left it at 285 MB instead of 321 MB, with no more CPU a match.
 */
export const THREAD_CACHE_KIB = 8_192;

/**
 * Opens the blob store, then the database (SQLite's page cache THREAD_CACHE_KIB); `schema` is a
 * PostgreSQL schema (tests). `tempFiles`: SQLite's temporary b-trees in files (the job thread:
 * a retention purge at a million players built some 70 MB of them in memory, and `serve` peaked
 * at 303–305 MB while it ran, 235 MB with them in files).
 */
export async function openThreadStores(
  config: Readonly<Config>,
  options: { schema?: string | undefined; tempFiles?: boolean } = {},
): Promise<ThreadStores> {
  // The blob store first, as the service opens them: a missing bucket is told before the database.
  const blobs = await openBlobStore(config);
  const store = await openStore(config.databaseUrl, {
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    ...(options.schema ? { schema: options.schema } : {}),
    cacheKiB: THREAD_CACHE_KIB,
    ...(options.tempFiles ? { tempFiles: true } : {}),
  });
  return { blobs, store };
}
