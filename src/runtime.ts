/**
 * The long-lived dependencies every command and the server share, opened from a config: the
 * store (migrated), the blob store and the clock. Drivers are loaded as the config asks for
 * them (the store's dialect, S3, Redis), so a command never pays for one it does not use.
 */
import type { Config } from './config.ts';
import { systemClock, type Clock } from './clock.ts';
import { openStore, type Store } from './store/store.ts';
import type { StoreLog } from './store/store-errors.ts';
import { syncSeasons } from './store/seasons.ts';
import { openBlobStore } from './blobs/open-blob-store.ts';
import type { BlobStore } from './blobs/blob-store.ts';
import type { Redis } from 'ioredis';

export interface Runtime {
  config: Readonly<Config>;
  store: Store;
  blobs: BlobStore;
  clock: Clock;
  /** Shared rate-limit counters when REDIS_URL is set. */
  redis: Redis | null;
  close(): Promise<void>;
}

/** Plain lines on stderr: what an operator watching a start (or a container log) reads. */
const STDERR_LOG: StoreLog = {
  warn: (message) => process.stderr.write(`${message}\n`),
  info: (message) => process.stderr.write(`${message}\n`),
};

export async function openRuntime(
  config: Readonly<Config>,
  clock: Clock = systemClock,
  log: StoreLog = STDERR_LOG,
): Promise<Runtime> {
  // First: a bucket that is missing or refuses us is a configuration error, told before the database is touched.
  const blobs = await openBlobStore(config);
  const store = await openStore(config.databaseUrl, {
    startupTimeoutMs: config.databaseStartupTimeoutMs,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    log,
  });
  await syncSeasons(store, clock.now());
  const redis = config.redisUrl
    ? (await import('./redis-client.ts')).connectRedis(config.redisUrl)
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
