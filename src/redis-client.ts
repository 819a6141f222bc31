/**
 * The Redis client behind shared rate-limit counters (REDIS_URL), in a module of its own so that
 * `ioredis` is loaded only by a process configured to use it (src/runtime.ts imports it then).
 */
import { Redis } from 'ioredis';

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
