import type { FastifyInstance } from 'fastify';
import { MEDIA_TYPES, unsupportedMediaType, type MediaType } from './jsonapi.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false for routes that serve files whatever the client accepts (telemetry). */
    negotiate?: boolean;
  }
}

/**
 * Picks the response media type from Accept: `application/vnd.api+json` or `application/json`
 * as asked, vnd.api+json for `*\/*` or no Accept, 415 for anything else (DESIGN §5).
 */
export function registerContentNegotiation(app: FastifyInstance): void {
  app.decorateRequest('negotiatedType', MEDIA_TYPES[0]);
  app.addHook('onRequest', async (request) => {
    if (request.method === 'OPTIONS' || request.routeOptions.config.negotiate === false) return;
    if (request.headers.accept === undefined) return;
    const chosen = request.accepts().type([...MEDIA_TYPES]);
    if (chosen === false) throw unsupportedMediaType();
    request.negotiatedType = chosen as MediaType;
  });
}
