/**
 * The long-lived dependencies every command and the server share, opened from a config: the
 * store (migrated), the blob store and the clock.
 */
import type { Config } from './config.ts';
import { systemClock, type Clock } from './clock.ts';
import { openStore, type Store } from './store/store.ts';
import { syncSeasons } from './store/seasons.ts';
import { openBlobStore } from './blobs/open-blob-store.ts';
import type { BlobStore } from './blobs/blob-store.ts';
import { Redis } from 'ioredis';

export interface Runtime {
  config: Readonly<Config>;
  store: Store;
  blobs: BlobStore;
  clock: Clock;
  /** Shared rate-limit counters when REDIS_URL is set. */
  redis: Redis | null;
  close(): Promise<void>;
}

export async function openRuntime(
  config: Readonly<Config>,
  clock: Clock = systemClock,
): Promise<Runtime> {
  // First: a bucket that is missing or refuses us is a configuration error, told before the database is touched.
  const blobs = await openBlobStore(config);
  const store = await openStore(config.databaseUrl);
  await syncSeasons(store, clock.now());
  // Only the rate limiter uses Redis; connect lazily so commands that never serve don't wait on it.
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 })
    : null;
  return {
    config,
    store,
    blobs,
    clock,
    redis,
    async close() {
      redis?.disconnect();
      await store.close();
    },
  };
}
