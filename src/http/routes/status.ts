import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../route-context.ts';
import { constantSource, precompress, sendPrecompressed } from '../precompressed.ts';
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

/**
 * `GET /status`: no key, no rate limit, the service's version and release time — constant while
 * the process runs, so rendered and gzipped once.
 */
export function statusRoutes(app: FastifyInstance, context: RouteContext): void {
  const document = precompress(renderStatus());
  context.fastPath.add(constantSource('/status', document));
  app.get('/status', { schema, compress: false }, (request, reply) =>
    sendPrecompressed(request, reply, document),
  );
}
