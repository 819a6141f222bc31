/**
 * How an app records its HTTP metrics and serves them: an onResponse hook on every route (its
 * labels resolved once per route, method and status, so an answer costs two map lookups and
 * one histogram observation into its label set's cell, src/http/histogram-cell.ts), one for
 * requests no route took, and `GET /metrics`.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, onResponseHookHandler, RouteOptions } from 'fastify';
import type { Config } from '../config.ts';
import type { Store } from '../store/store.ts';
import { createAppMetrics, type AppMetrics } from './metrics.ts';
import { histogramCell } from './histogram-cell.ts';
import { ApiError, sendError } from './jsonapi.ts';
import { METRICS_TOKEN_SCHEME } from './openapi.ts';
import { errorResponse } from './schemas/responses.ts';

/** Routes under this prefix are ingest routes: their answers are also counted as ingest results. */
export const INGEST_ROUTE_PREFIX = '/ingest/';

/** The route label of requests no route took (404s, 405s): one series, whatever the URL. */
const UNMATCHED = 'unmatched';

interface StatusSeries {
  record(seconds: number): void;
}

const ingestResult = (status: number): string =>
  status === 201 ? 'created' : status < 300 ? 'duplicate' : status < 500 ? 'rejected' : 'failed';

/** Records the answers of one route, keeping the label children of each method and status. */
function routeRecorder(
  metrics: AppMetrics,
  route: string,
): (method: string, status: number, seconds: number) => void {
  const ingest = route.startsWith(INGEST_ROUTE_PREFIX);
  const byMethod = new Map<string, Map<number, StatusSeries>>();

  function series(method: string, status: number): StatusSeries {
    const duration = histogramCell(metrics.httpDuration, {
      method,
      route,
      status: String(status),
    });
    const refused = status === 429 ? metrics.rateLimitRefusals.labels({ route }) : null;
    const result = ingestResult(status);
    const ingested = ingest ? metrics.ingestRequests.labels({ route, result }) : null;
    const ingestTime = ingest ? metrics.ingestDuration.labels({ route, result }) : null;
    return {
      record(seconds) {
        duration(seconds);
        refused?.inc();
        ingested?.inc();
        ingestTime?.observe(seconds);
      },
    };
  }

  // A GET answered 200, nearly every answer (the fast path's are all): no lookup by method and status.
  let getOk: StatusSeries | null = null;

  return (method, status, seconds) => {
    if (status === 200 && method === 'GET') {
      getOk ??= series(method, status);
      return getOk.record(seconds);
    }
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let recorder = byStatus.get(status);
    if (recorder === undefined) {
      recorder = series(method, status);
      byStatus.set(status, recorder);
    }
    recorder.record(seconds);
  };
}

/** The onResponse hook of a route recording through `record`. */
const responseHook =
  (record: ReturnType<typeof routeRecorder>): onResponseHookHandler =>
  (request, reply, done) => {
    record(request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  };

const asArray = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics (null with METRICS=off), for what runs beside it: the job scheduler. */
    metrics: AppMetrics | null;
    /** Records an answer given outside Fastify's pipeline (the fast path); absent with METRICS=off. */
    recordResponse?: (route: string, method: string, status: number, seconds: number) => void;
  }
}

/**
 * Unless METRICS=off: creates the app's metrics, records every response into them and serves
 * them at `GET /metrics` (to `Authorization: Bearer <METRICS_TOKEN>` only, when one is set).
 * Must be called before routes are added.
 */
export function registerMetrics(
  app: FastifyInstance,
  deps: { config: Pick<Config, 'metrics' | 'metricsToken'>; store: Pick<Store, 'poolStats'> },
): AppMetrics | null {
  if (deps.config.metrics === 'off') {
    app.decorate('metrics', null);
    return null;
  }
  const metrics = createAppMetrics(deps.store);
  app.decorate('metrics', metrics);

  // One recorder per route template, shared by the route's hook and the fast path.
  const recorders = new Map<string, ReturnType<typeof routeRecorder>>();
  const recorderOf = (route: string): ReturnType<typeof routeRecorder> => {
    let recorder = recorders.get(route);
    if (recorder === undefined) {
      recorder = routeRecorder(metrics, route);
      recorders.set(route, recorder);
    }
    return recorder;
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    route.onResponse = [...asArray(route.onResponse), responseHook(recorderOf(route.url))];
  });
  const unmatched = responseHook(recorderOf(UNMATCHED));
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) return unmatched.call(app, request, reply, done);
    done();
  });
  app.decorate('recordResponse', (route: string, method: string, status: number, seconds: number) =>
    recorderOf(route)(method, status, seconds),
  );

  const { metricsToken } = deps.config;
  const expected = metricsToken === null ? null : Buffer.from(`Bearer ${metricsToken}`);
  const authorized = (header: string | undefined): boolean => {
    if (expected === null) return true;
    const given = Buffer.from(header ?? '');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  };

  const schema = {
    summary: 'Prometheus metrics',
    description:
      'The Prometheus text exposition of this instance (METRICS=on). Not for the public: keep it ' +
      'on a private network' +
      (metricsToken === null ? ', or set METRICS_TOKEN.' : '; it needs the METRICS_TOKEN.'),
    operationId: 'getMetrics',
    tags: ['service'],
    ...(metricsToken === null ? {} : { security: [{ [METRICS_TOKEN_SCHEME]: [] }] }),
    response: {
      200: {
        description: 'The metrics',
        content: {
          'text/plain': {
            schema: { type: 'string' },
            example: 'gamedata_http_requests_total{method="GET",route="/status",status="200"} 3\n',
          },
        },
      },
      ...(metricsToken === null
        ? {}
        : { 401: errorResponse(401, 'Metrics token invalid or missing') }),
    },
  };
  app.get('/metrics', { config: { negotiate: false }, schema }, async (request, reply) => {
    if (!authorized(request.headers.authorization)) {
      return sendError(
        request,
        reply,
        new ApiError(401, 'Unauthorized', 'Metrics token invalid or missing'),
      );
    }
    return reply.type(metrics.contentType).send(await metrics.exposition());
  });
  return metrics;
}
