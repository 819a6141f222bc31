/**
 * The access log: one JSON line per answered request, written from a single onResponse hook
 * (Fastify's own request logging is off). It names the route template, never the raw URL (whose
 * query may carry names a client did not mean to publish), and the key's id, never the key.
 */
import type { FastifyInstance } from 'fastify';

export function registerAccessLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    // request.log is the per-request child logger: the line carries its reqId.
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        keyId: request.apiKey?.id ?? null,
      },
      'request',
    );
    done();
  });
}
