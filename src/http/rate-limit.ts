import type {
  FastifyInstance,
  onSendHookHandler,
  preHandlerAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';
import { tooManyRequests } from './jsonapi.ts';

const WINDOW_MS = 60_000;
const RESET_HEADER = 'x-ratelimit-reset';

/**
 * Per-key rate limits on every keyed endpoint (the ones whose onRequest includes the API key
 * guard): each key's own per-minute budget, counted in memory or in Redis when one is given so
 * that all instances share the budget. Limited responses carry integer X-Ratelimit-Limit,
 * -Remaining and -Reset (UNIX seconds, with a Date header from the same clock); over budget → 429
 * with Retry-After. Must be called before routes are added.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  options: { isKeyed: (route: RouteOptions) => boolean; redis: Redis | null; clock: Clock },
): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler',
    timeWindow: WINDOW_MS,
    max: (request) => request.apiKey?.ratePerMinute ?? 1,
    keyGenerator: (request) => request.apiKey?.id ?? 'anonymous',
    nameSpace: 'gamedata-rate-',
    ...(options.redis ? { redis: options.redis } : {}),
    // Without its counters the service would be unlimited: better to fail loudly than open.
    skipOnError: false,
    errorResponseBuilder: (_request, context) =>
      tooManyRequests(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  const limit = app.rateLimit() as preHandlerAsyncHookHandler;

  // The plugin reports the reset as seconds from now; clients want the UNIX time it happens,
  // consistent with the response's Date (some subtract one from the other).
  const rewriteReset: onSendHookHandler = (_request, reply, payload, done) => {
    const secondsLeft = reply.getHeader(RESET_HEADER);
    if (secondsLeft !== undefined) {
      const now = options.clock.now();
      reply.header('date', new Date(now).toUTCString());
      reply.header(RESET_HEADER, Math.ceil(now / 1000) + Number(secondsLeft));
    }
    done(null, payload);
  };

  app.addHook('onRoute', (route) => {
    if (!options.isKeyed(route)) return;
    route.preHandler = [...asArray(route.preHandler), limit];
    route.onSend = [...asArray(route.onSend), rewriteReset];
  });
}

const asArray = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
