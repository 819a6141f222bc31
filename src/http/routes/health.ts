import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { RouteContext } from '../route-context.ts';
import { ApiError, sendDocument } from '../jsonapi.ts';

const health = (id: string, status: string): string =>
  JSON.stringify({ data: { type: 'health', id, attributes: { status } } });

/**
 * Probes for operators and load balancers, neither keyed nor limited: `/healthz` answers while
 * the process serves; `/readyz` only when the store answers a query too (503 otherwise, so a
 * balancer stops sending traffic to an instance that lost its database).
 */
export function healthRoutes(app: FastifyInstance, context: RouteContext): void {
  const alive = health('healthz', 'ok');
  app.get('/healthz', (request, reply) => sendDocument(request, reply, alive));
  app.get('/readyz', async (request, reply) => {
    try {
      await sql`select 1`.execute(context.store.db);
    } catch (error) {
      request.log.error({ err: error }, 'store not ready');
      throw new ApiError(503, 'Service Unavailable', 'The store does not answer');
    }
    return sendDocument(request, reply, health('readyz', 'ok'));
  });
}
