/**
 * The long-lived dependencies every command and the server share, opened from a config: the
 * store (migrated), the blob store and the clock.
 */
import type { Config } from './config.ts';
import { systemClock, type Clock } from './clock.ts';
import { openStore, type Store } from './store/store.ts';
import type { StoreLog } from './store/store-errors.ts';
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

/** Plain lines on stderr: what an operator watching a start (or a container log) reads. */
const STDERR_LOG: StoreLog = {
  warn: (message) => process.stderr.write(`${message}\n`),
  info: (message) => process.stderr.write(`${message}\n`),
};

/** Longest wait for a Redis answer before the rate limiter counts in memory instead, in ms. */
export const REDIS_COMMAND_TIMEOUT_MS = 50;

/**
 * A Redis client for rate-limit counters, which must never hold a request up: commands are
 * sent only on a ready connection (no offline queue), never retried, and fail after
 * REDIS_COMMAND_TIMEOUT_MS; the limiter then counts in memory (src/http/rate-limit.ts).
 * Reconnecting goes on forever, at most a second apart. It connects on first use, so commands
 * that never serve don't wait on it; its errors go to whoever listens (the limiter logs them).
 */
export function connectRedis(url: string): Redis {
  return new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 1_000,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 1_000),
  });
}

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
  const redis = config.redisUrl ? connectRedis(config.redisUrl) : null;
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
