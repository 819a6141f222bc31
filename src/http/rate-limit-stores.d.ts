/**
 * The counter stores @fastify/rate-limit ships but does not declare: the in-memory one and the
 * Redis one (a Lua INCR + PEXPIRE). The limiter wraps both rather than counting itself.
 */
declare module '@fastify/rate-limit/store/LocalStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  interface LocalStoreCtor {
    new (
      continueExceeding: boolean,
      exponentialBackoff: boolean,
      cache?: number,
    ): FastifyRateLimitStore;
  }
  const LocalStore: LocalStoreCtor;
  export default LocalStore;
}

declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  import type { Redis } from 'ioredis';
  interface RedisStoreCtor {
    new (
      continueExceeding: boolean,
      exponentialBackoff: boolean,
      redis: Redis,
      key?: string,
    ): FastifyRateLimitStore;
  }
  const RedisStore: RedisStoreCtor;
  export default RedisStore;
}
