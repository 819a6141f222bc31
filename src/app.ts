/**
 * Builds the HTTP application from its dependencies. It never listens: `src/main.ts` does, and
 * tests call `app.inject()`.
 */
import Fastify, { LogController, type FastifyInstance, type RouteOptions } from 'fastify';
import accepts from '@fastify/accepts';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import { registerRateLimits } from './http/rate-limit.ts';
import { registerContentNegotiation } from './http/content-negotiation.ts';
import { registerInputGuard } from './http/input-guard.ts';
import { registerAccessLog } from './http/access-log.ts';
import { lazyChildLogger } from './http/lazy-child-logger.ts';
import { registerErrorHandlers } from './http/error-handler.ts';
import { FRAMEWORK_ERROR_OPTIONS, registerFrameworkErrors } from './http/framework-errors.ts';
import type { AppDeps, RouteContext } from './http/route-context.ts';
import { apiKeyGuard } from './http/api-key-guard.ts';
import { createChangeFeed } from './store/change-feed.ts';
import { keyedDocuments } from './http/keyed-documents.ts';
import { ROUTES } from './http/routes/index.ts';
import { registerMetrics } from './http/metrics-hooks.ts';
import { observedBlobStore } from './blobs/observed-blob-store.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerApiDocs } from './http/api-docs.ts';
import { createMirror } from './upstream/mirror.ts';
import { staleAnswerHeaders } from './upstream/player-read-through.ts';
import { staleAge } from './upstream/read-through.ts';
import { createFastPath, requestIds } from './http/fast-path.ts';

export type { AppDeps, RouteContext };

/** CORS as the spec has it: any origin, no credentials; the fast path sends the same headers. */
const CORS = {
  origin: '*',
  methods: ['GET', 'POST', 'OPTIONS'],
  allowedHeaders: ['Origin', 'X-Title-Id', 'Authorization'],
  exposedHeaders: ['Content-Length'],
  maxAge: 86_400,
  optionsSuccessStatus: 200,
  strictPreflight: false,
};
/** What the CORS plugin adds to an answer that is not a preflight, with this configuration. */
const CORS_HEADERS: readonly string[] = [
  'access-control-allow-origin',
  CORS.origin,
  'access-control-expose-headers',
  CORS.exposedHeaders.join(', '),
];

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // Cached documents are answered in front of Fastify (src/http/fast-path.ts); one request id
  // sequence for both paths.
  const fastPath = createFastPath();
  const ids = requestIds();
  const app = Fastify({
    serverFactory: fastPath.serverFactory,
    genReqId: ids.nextText,
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    // Fastify's own request lines carry the raw URL and cost two lines a request; ours is one
    // line with the route template (src/http/access-log.ts). Errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    // A request's child logger is made only when the request logs something.
    childLoggerFactory: lazyChildLogger,
    // Brackets in query names (filter[playerNames]) must reach the routes literally.
    routerOptions: { ignoreTrailingSlash: true },
    // While draining for shutdown, a request arriving on an open connection is still answered
    // (with Connection: close) rather than refused with the framework's non-JSON:API 503.
    return503OnClosing: false,
    ...FRAMEWORK_ERROR_OPTIONS,
  });
  registerFrameworkErrors(app);
  registerErrorHandlers(app);
  // Before any route is added (CORS preflight included): the access line is added to each route.
  const accessLine =
    deps.logger && deps.config.accessLog ? registerAccessLog(app, deps.config.logFlushMs) : null;
  // Each app reads the change feed of its store, unless it is handed one (and then its owner stops it).
  const changes = deps.changes ?? createChangeFeed(deps.store, { clock: deps.clock, log: app.log });
  if (!deps.changes) app.addHook('onClose', () => changes.stop());
  const requireApiKey = apiKeyGuard(deps.store, deps.clock, changes);
  const isKeyed = (route: RouteOptions): boolean =>
    [route.onRequest].flat().includes(requireApiKey);

  await app.register(accepts);
  await app.register(cors, CORS);
  // The spec compresses whenever the client accepts gzip, so no size threshold; gzip only.
  // Nothing is uploaded, so no request decompression hook on every GET.
  await app.register(compress, {
    global: true,
    threshold: 0,
    encodings: ['gzip'],
    globalDecompression: false,
  });
  loadCompressedPayloadChecks();
  // The documentation routes are not JSON:API: registered before content negotiation, rate
  // limits and metrics, whose hooks only reach the routes added after them.
  await registerOpenApi(app, { config: deps.config, isKeyed });
  await registerApiDocs(app, deps.config);
  registerContentNegotiation(app);
  registerInputGuard(app);

  const metrics = registerMetrics(app, deps);
  const mirror =
    deps.mirror === undefined
      ? createMirror(deps, (message) => app.log.warn(message))
      : deps.mirror;
  const context: RouteContext = {
    ...deps,
    changes,
    blobs: metrics ? observedBlobStore(deps.blobs, metrics.blobFailed) : deps.blobs,
    requireApiKey,
    metrics,
    mirror,
    documents: keyedDocuments({ ...deps, changes, metrics, ...(mirror ? { staleAge } : {}) }),
    fastPath,
  };
  // Every app of the process hears its writers: a closed one must stop listening.
  app.addHook('onClose', async () => context.documents.stop());
  await changes.start();
  const counting = await registerRateLimits(app, {
    redis: deps.redis ?? null,
    clock: deps.clock,
    isKeyed,
  });
  // Age and Warning on what is served stale from a mirror, if the answer is a success.
  if (context.mirror) app.addHook('onSend', staleAnswerHeaders);
  app.addHook('onClose', async () => context.mirror?.players.stop());
  for (const registerRoutes of ROUTES) registerRoutes(app, context);
  // After the routes' own sources, whose checks are cheaper than a lookup of the whole URL.
  fastPath.add(context.documents.fastSource);
  app.addHook('onReady', async () =>
    fastPath.enable({
      now: () => deps.clock.now(),
      cachedKey: requireApiKey.cachedKey,
      ...counting,
      corsHeaders: CORS_HEADERS,
      accessLine,
      record: app.recordResponse ?? null,
      nextRequestId: ids.next,
    }),
  );
  // Once closing, every request gets Fastify's answer (with its Connection: close).
  app.addHook('preClose', async () => fastPath.disable());
  return app;
}

/**
 * @fastify/compress asks of every payload whether it is a fetch `Response` or a web
 * `ReadableStream`; Node loads those globals (undici, web streams) when first touched, about
 * 30 ms of the first answer Fastify compresses. Touched while the app is built instead.
 */
function loadCompressedPayloadChecks(): void {
  void globalThis.Response;
  void globalThis.ReadableStream;
}
