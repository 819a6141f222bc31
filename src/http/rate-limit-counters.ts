/**
 * Where rate-limit counters live, and what happens when Redis goes away. The policy: while
 * Redis is unreachable each instance counts in its own memory — every instance then enforces a
 * key's whole budget on its own, so N instances allow up to N budgets — and says so once in the
 * log and in `/readyz`; when Redis answers again the shared counters take over by themselves.
 * A request never waits on an unreachable Redis for more than one short command timeout
 * (src/runtime.ts), and never fails because of it.
 *
 * The counting itself is @fastify/rate-limit's own: its Redis store and its in-memory store,
 * chosen per request.
 */
import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';

/** How often a Redis that stopped answering (but kept its connection) is tried again, in ms. */
const RETRY_AFTER_FAILURE_MS = 1_000;
/** Commands failing in a row on a live connection that make Redis count as unreachable. */
const FAILURES_FOR_OUTAGE = 3;
/** Keys counted in memory at most while Redis is away (least recently used dropped first). */
const LOCAL_KEYS = 10_000;
const NAMESPACE = 'gamedata-rate-';

/** `memory`: no Redis configured; `redis`: shared counters; `fallback`: Redis configured but unreachable. */
export type CounterMode = 'memory' | 'redis' | 'fallback';

export interface CounterLog {
  warn(message: string): void;
  info(message: string): void;
}

export interface RateLimitCounters {
  /** The store class handed to @fastify/rate-limit (it constructs it with its options). */
  Store: new (options: FastifyRateLimitOptions) => FastifyRateLimitStore;
  mode(): Exclude<CounterMode, 'memory'>;
}

type Incr = FastifyRateLimitStore['incr'];

/**
 * Tracks whether Redis can be asked, logging each change once. A lost connection counts at
 * once; commands that fail on a live connection (timeouts) only when several fail in a row,
 * since one late answer on a busy machine is not an outage — that request alone counts in
 * memory.
 */
function redisHealth(redis: Redis, clock: Clock, log: CounterLog) {
  let healthy = true;
  let retryAt = 0;
  let lastError = '';
  let failuresInARow = 0;
  const down = (reason: string): void => {
    retryAt = clock.now() + RETRY_AFTER_FAILURE_MS;
    if (!healthy) return;
    healthy = false;
    log.warn(
      `Redis unreachable (${reason}): rate limits are counted per instance until it is back`,
    );
  };
  const up = (): void => {
    if (healthy) return;
    healthy = true;
    log.info('Redis answers again: rate limits are shared by every instance again');
  };
  // Without a listener ioredis prints every failed reconnect as an unhandled error.
  redis.on('error', (error: Error) => {
    lastError = error.message;
  });
  redis.on('reconnecting', () => down(lastError || 'connection lost'));
  // The ready check (an INFO round trip) has passed: counters can be shared again.
  redis.on('ready', up);
  return {
    healthy: () => healthy && redis.status === 'ready',
    /** Whether this request should ask Redis: it is connected, and has not just failed. */
    usable(): boolean {
      if (redis.status !== 'ready') {
        down(lastError || `connection ${redis.status}`);
        return false;
      }
      return healthy || clock.now() >= retryAt;
    },
    failed(error: Error | null): void {
      failuresInARow++;
      if (!healthy || failuresInARow >= FAILURES_FOR_OUTAGE) down(error?.message ?? 'no answer');
    },
    answered(): void {
      failuresInARow = 0;
      up();
    },
  };
}

/**
 * Counters shared through Redis with the fallback above. Give `Store` to @fastify/rate-limit;
 * `mode()` says where counting happens now, for `/readyz`.
 */
export function redisRateLimitCounters(
  redis: Redis,
  options: { clock: Clock; log: CounterLog },
): RateLimitCounters {
  const health = redisHealth(redis, options.clock, options.log);

  /** Counts in Redis while it answers, in memory otherwise (the plugin's two stores). */
  class SharedOrLocalStore implements FastifyRateLimitStore {
    // A window is a fixed minute: neither continueExceeding nor exponentialBackoff is used.
    private shared: FastifyRateLimitStore = new RedisStore(false, false, redis, NAMESPACE);
    private local: FastifyRateLimitStore = new LocalStore(false, false, LOCAL_KEYS);

    incr(...[key, callback, timeWindow, max]: Parameters<Incr>): void {
      if (!health.usable()) return this.local.incr(key, callback, timeWindow, max);
      this.shared.incr(
        key,
        (error, result) => {
          if (error || result === undefined) {
            health.failed(error);
            return this.local.incr(key, callback, timeWindow, max);
          }
          health.answered();
          callback(null, result);
        },
        timeWindow,
        max,
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const child = new SharedOrLocalStore();
      child.shared = this.shared.child(routeOptions);
      child.local = this.local.child(routeOptions);
      return child;
    }
  }

  return { Store: SharedOrLocalStore, mode: () => (health.healthy() ? 'redis' : 'fallback') };
}
