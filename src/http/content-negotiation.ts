import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { MEDIA_TYPES, unsupportedMediaType, type MediaType } from './jsonapi.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false for routes that serve files whatever the client accepts (telemetry). */
    negotiate?: boolean;
  }
}

/** The Accept values clients actually send, settled without parsing. */
const COMMON_ACCEPT: ReadonlyMap<string, MediaType> = new Map([
  ['application/vnd.api+json', 'application/vnd.api+json'],
  ['application/json', 'application/json'],
  ['*/*', 'application/vnd.api+json'],
]);

/**
 * The media type to answer with, from the request's Accept: `application/vnd.api+json` or
 * `application/json` as asked, vnd.api+json for `*\/*` or no Accept; null for anything else.
 */
export function negotiateMediaType(request: FastifyRequest): MediaType | null {
  const common = commonMediaType(request.headers.accept);
  if (common !== null) return common;
  const chosen = request.accepts().type([...MEDIA_TYPES, JSON_UTF8]);
  if (chosen === JSON_UTF8) return 'application/json';
  return chosen === false ? null : (chosen as MediaType);
}

/**
 * `application/json` with the charset it always has: some HTTP clients send this by default, and
 * a media range with a parameter matches only a type offered with the same one.
 */
const JSON_UTF8 = 'application/json; charset=utf-8';

/**
 * The media type for the Accept values settled without parsing (absent, empty, one of the
 * common ones); null when the header needs full negotiation (the answer may still be a type).
 */
export function commonMediaType(accept: string | undefined): MediaType | null {
  if (accept === undefined || accept === '') return MEDIA_TYPES[0];
  return COMMON_ACCEPT.get(accept) ?? null;
}

const negotiate: onRequestHookHandler = (request, _reply, done) => {
  const chosen = negotiateMediaType(request);
  if (chosen === null) return done(unsupportedMediaType());
  request.negotiatedType = chosen;
  done();
};

/**
 * Content negotiation (DESIGN §5) on every route but those marked `negotiate: false`, ahead of
 * the route's own hooks so a foreign Accept gets 415 before a missing key gets 401. Must be
 * called before routes are added.
 */
export function registerContentNegotiation(app: FastifyInstance): void {
  app.decorateRequest('negotiatedType', MEDIA_TYPES[0]);
  app.addHook('onRoute', (route) => {
    if (route.config?.negotiate === false || route.method === 'OPTIONS') return;
    const existing = route.onRequest ?? [];
    route.onRequest = [negotiate, ...(Array.isArray(existing) ? existing : [existing])];
  });
}
