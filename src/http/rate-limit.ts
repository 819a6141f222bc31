import type {
  FastifyInstance,
  onRequestAsyncHookHandler,
  onSendHookHandler,
  preHandlerAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import rateLimit, {
  type FastifyRateLimitOptions,
  type FastifyRateLimitStore,
} from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';
import type { ApiKey } from '../store/api-keys.ts';
import { tooManyRequests } from './jsonapi.ts';
import type { FastPathDeps, RateCount } from './fast-path.ts';
import { redisRateLimitCounters, type CounterMode } from './rate-limit-counters.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where rate limits are counted right now (for `/readyz`). */
    rateLimitMode(): CounterMode;
  }
  interface FastifyContextConfig {
    /** 'ingest': counted against the key's own ingest budget, never against a read budget. */
    budget?: 'ingest';
  }
}

/** Longest wait at start-up for a Redis connection before serving with in-memory counters, in ms. */
const REDIS_START_WAIT_MS = 1_000;

const WINDOW_MS = 60_000;
const RESET_HEADER = 'x-ratelimit-reset';

/**
 * Per-key rate limits on every keyed endpoint (the ones whose onRequest includes the API key
 * guard), and a separate budget on the ingest routes (`config.budget: 'ingest'`, after their
 * own guard): each key's own per-minute budget, counted in memory or in Redis when one is given so
 * that all instances share the budget — in memory meanwhile when Redis is unreachable
 * (src/http/rate-limit-counters.ts). Limited responses carry integer X-Ratelimit-Limit,
 * -Remaining and -Reset (UNIX seconds, with a Date header from the same clock); over budget → 429
 * with Retry-After. Must be called before routes are added. Returns the same counting for the
 * fast path (src/http/fast-path.ts).
 */
export async function registerRateLimits(
  app: FastifyInstance,
  options: { isKeyed: (route: RouteOptions) => boolean; redis: Redis | null; clock: Clock },
): Promise<Pick<FastPathDeps, 'count' | 'countNow' | 'resetHeaders'>> {
  const { redis } = options;
  const counters = redis
    ? redisRateLimitCounters(redis, {
        clock: options.clock,
        log: { warn: (message) => app.log.warn(message), info: (message) => app.log.info(message) },
      })
    : null;
  app.decorate('rateLimitMode', () => counters?.mode() ?? 'memory');
  if (redis) await connectBriefly(redis);
  const memory = counters ? null : memoryCounters();
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler',
    timeWindow: WINDOW_MS,
    max: (request) => request.apiKey?.ratePerMinute ?? 1,
    keyGenerator: (request) => request.apiKey?.id ?? 'anonymous',
    nameSpace: 'gamedata-rate-',
    store: counters ? counters.Store : memory!.Store,
    // The counters fall back to memory themselves; a store error left would be a bug to see.
    skipOnError: false,
    errorResponseBuilder: (_request, context) =>
      tooManyRequests(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  const limit = app.rateLimit() as preHandlerAsyncHookHandler;
  // Ingest keys never read, but their counters get names of their own all the same; counted
  // before the body is read, so a refused upload costs nothing.
  const ingestLimit = app.rateLimit({
    keyGenerator: (request) => `ingest:${request.apiKey?.id ?? 'anonymous'}`,
  }) as onRequestAsyncHookHandler;

  const rewriteReset: onSendHookHandler = (_request, reply, payload, done) => {
    const secondsLeft = reply.getHeader(RESET_HEADER);
    if (secondsLeft !== undefined) {
      const { date, reset } = resetHeaders(Number(secondsLeft), options.clock.now());
      reply.header('date', date);
      reply.header(RESET_HEADER, reset);
    }
    done(null, payload);
  };

  // The plugin's own counting (same store, same key and budget), for the fast path.
  const countRequest = app.createRateLimit();
  const counted = (result: Awaited<ReturnType<typeof countRequest>>): RateCount => {
    if (result.isAllowed) throw new Error('no key is on an allow list');
    return result;
  };
  const counting: Pick<FastPathDeps, 'count' | 'countNow' | 'resetHeaders'> = {
    // One promise on top of the plugin's, not an async function's two.
    count: (key: ApiKey): Promise<RateCount> =>
      countRequest({ apiKey: key, routeOptions: NO_ROUTE_CONFIG } as never).then(counted),
    ...(memory ? { countNow: memory.countNow } : {}),
    resetHeaders,
  };

  app.addHook('onRoute', (route) => {
    if (route.config?.budget === 'ingest') {
      route.onRequest = [...asArray(route.onRequest), ingestLimit];
      route.onSend = [...asArray(route.onSend), rewriteReset];
      return;
    }
    if (!options.isKeyed(route)) return;
    route.preHandler = [...asArray(route.preHandler), limit];
    route.onSend = [...asArray(route.onSend), rewriteReset];
  });
  return counting;
}

/**
 * Without Redis: the plugin's own in-memory store, as it would make it, with a synchronous way in
 * for the fast path. The plugin's counting is an async function awaiting the key, the budget and
 * the store in turn — several microtask turns, 5–8% of a keyed answer — though this store
 * answers at once. `countNow` counts in the same store, under the key and with the budget and
 * window the plugin uses (`keyGenerator`, `max`, `timeWindow` above), and returns what
 * `createRateLimit` would.
 */
function memoryCounters(): {
  Store: new (options: FastifyRateLimitOptions) => FastifyRateLimitStore;
  countNow(key: ApiKey): RateCount;
} {
  let store: FastifyRateLimitStore | null = null;
  class PluginLocalStore implements FastifyRateLimitStore {
    private readonly local: FastifyRateLimitStore;
    constructor() {
      // As the plugin makes it: neither continueExceeding nor exponentialBackoff, default size.
      this.local = new LocalStore(false, false);
      store ??= this.local;
    }
    incr(...args: Parameters<FastifyRateLimitStore['incr']>): void {
      this.local.incr(...args);
    }
    child(options: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      return this.local.child(options);
    }
  }
  return {
    Store: PluginLocalStore,
    countNow(key) {
      const max = key.ratePerMinute;
      let current = 0;
      let ttl = 0;
      // LocalStore calls back before it returns.
      store!.incr(
        key.id,
        (error, result) => {
          if (error || result === undefined) throw error ?? new Error('no count');
          current = result.current;
          ttl = result.ttl;
        },
        WINDOW_MS,
        max,
      );
      return {
        max,
        remaining: Math.max(0, max - current),
        ttlInSeconds: Math.ceil(ttl / 1000),
        isExceeded: current > max,
      };
    },
  };
}

/** What the plugin reads of a request's route: no rate-limit group. */
const NO_ROUTE_CONFIG = { config: {} };

/**
 * The Date and X-Ratelimit-Reset of an answer whose budget resets `secondsLeft` from `now`
 * (epoch ms): the plugin reports seconds from now, clients want the UNIX time it happens,
 * consistent with the response's Date (some subtract one from the other).
 */
export function resetHeaders(secondsLeft: number, now: number): { date: string; reset: number } {
  return { date: httpDate(now), reset: Math.ceil(now / 1000) + secondsLeft };
}

/** The second `lastDate` was made for (epoch seconds), and the Date header of that second. */
let lastSecond = Number.NaN;
let lastDate = '';

/**
 * The Date header value of `now` (epoch ms): whole seconds, so made once a second rather than
 * per answer (a Date and its formatting cost about a microsecond, a few percent of an answer).
 */
export function httpDate(now: number): string {
  const second = Math.floor(now / 1000);
  if (second !== lastSecond) {
    lastDate = new Date(second * 1000).toUTCString();
    lastSecond = second;
  }
  return lastDate;
}

/**
 * Starts connecting a lazily connecting client and waits a moment for it, so that the first
 * requests count in Redis; an unreachable Redis delays the start by REDIS_START_WAIT_MS at most.
 */
async function connectBriefly(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return;
  const ready = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, REDIS_START_WAIT_MS);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  // Failures reach the 'error' listener of the counters; reconnecting goes on by itself.
  if (redis.status === 'wait') redis.connect().catch(() => {});
  await ready;
}

const asArray = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
