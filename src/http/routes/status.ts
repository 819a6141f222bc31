import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../route-context.ts';
import { sendDocument } from '../jsonapi.ts';
import { renderStatus } from '../../presenters/status.ts';

/** `GET /status`: no key, no rate limit, the service's version and release time. */
export function statusRoutes(app: FastifyInstance, _context: RouteContext): void {
  const body = renderStatus();
  app.get('/status', (request, reply) => sendDocument(request, reply, body));
}
