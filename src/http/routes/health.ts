import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { RouteContext } from '../route-context.ts';
import type { CounterMode } from '../rate-limit-counters.ts';
import { describeStoreError } from '../../store/store-errors.ts';
import { sendDocument, serviceUnavailable } from '../jsonapi.ts';
import { constantSource, precompress, sendPrecompressed } from '../precompressed.ts';
import { STORE_RETRY_AFTER_SECONDS } from '../error-handler.ts';
import { HealthDocument } from '../schemas/service-documents.ts';
import { documentResponse, errorResponse } from '../schemas/responses.ts';

const liveness = {
  summary: 'Liveness probe',
  description: 'Answers while the process serves requests.',
  operationId: 'getLiveness',
  tags: ['service'],
  response: { 200: documentResponse('The process serves', HealthDocument) },
};
const readiness = {
  summary: 'Readiness probe',
  description: 'Answers 200 only while the store answers a query too: route traffic here then.',
  operationId: 'getReadiness',
  tags: ['service'],
  response: {
    200: documentResponse('The instance can answer requests', HealthDocument),
    503: errorResponse(503, 'The database does not answer within two seconds', {
      'Retry-After': { type: 'integer', description: 'Seconds to wait before trying again' },
    }),
  },
};

/**
 * Longest a readiness probe waits for the store, in ms: well under a balancer's probe timeout,
 * however long the store's own connect and statement timeouts are.
 */
const READINESS_TIMEOUT_MS = 2_000;

const RATE_LIMIT_DETAIL: Record<CounterMode, string | null> = {
  memory: null,
  redis: null,
  fallback:
    'Redis is unreachable: rate limits are counted per instance (each instance allows a whole budget) until it is back',
};

const health = (id: string, attributes: Record<string, string>): string =>
  JSON.stringify({ data: { type: 'health', id, attributes } });

/** Resolves when the store answers a trivial query; rejects when it fails or takes too long. */
async function storeAnswers(context: RouteContext): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${READINESS_TIMEOUT_MS} ms`)),
      READINESS_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([sql`select 1`.execute(context.store.db), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Probes for operators and load balancers, neither keyed nor limited: `/healthz` answers while
 * the process serves; `/readyz` only when the store answers a query within two seconds too (503
 * otherwise, so a balancer stops sending traffic to an instance that lost its database). A
 * Redis outage leaves the instance ready — it serves with per-instance rate limits — and
 * `/readyz` says so in `status: degraded` and `detail`.
 */
export function healthRoutes(app: FastifyInstance, context: RouteContext): void {
  // Constant: rendered and gzipped once, as the cheapest answer a probe can get.
  const alive = precompress(health('healthz', { status: 'ok' }));
  context.fastPath.add(constantSource('/healthz', alive));
  app.get('/healthz', { schema: liveness, compress: false }, (request, reply) =>
    sendPrecompressed(request, reply, alive),
  );
  app.get('/readyz', { schema: readiness }, async (request, reply) => {
    try {
      await storeAnswers(context);
    } catch (error) {
      request.log.warn(`not ready: the store does not answer (${describeStoreError(error)})`);
      throw serviceUnavailable('The database does not answer', STORE_RETRY_AFTER_SECONDS);
    }
    const rateLimits = app.rateLimitMode();
    const detail = RATE_LIMIT_DETAIL[rateLimits];
    const attributes: Record<string, string> = {
      status: detail === null ? 'ok' : 'degraded',
      store: 'ok',
      rateLimits: rateLimits === 'redis' ? 'shared' : 'per-instance',
    };
    if (detail !== null) attributes.detail = detail;
    return sendDocument(request, reply, health('readyz', attributes));
  });
}
