import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../route-context.ts';
import { sendDocument } from '../jsonapi.ts';
import { renderStatus } from '../../presenters/status.ts';
import { StatusDocument } from '../schemas/service-documents.ts';
import { documentResponse } from '../schemas/responses.ts';

const schema = {
  summary: 'Service status',
  description: 'Whether the service answers, with its version. Clients use it as a health check.',
  operationId: 'getStatus',
  tags: ['service'],
  response: { 200: documentResponse('The service is up', StatusDocument) },
};

/** `GET /status`: no key, no rate limit, the service's version and release time. */
export function statusRoutes(app: FastifyInstance, _context: RouteContext): void {
  const body = renderStatus();
  app.get('/status', { schema }, (request, reply) => sendDocument(request, reply, body));
}
