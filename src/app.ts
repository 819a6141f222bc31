/**
 * Builds the HTTP application from its dependencies. It never listens: `src/main.ts` does, and
 * tests call `app.inject()`.
 */
import http from 'node:http';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import accepts from '@fastify/accepts';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import type { Config } from './config.ts';
import type { Clock } from './clock.ts';
import type { Store } from './store/store.ts';
import type { BlobStore } from './blobs/blob-store.ts';
import type { Redis } from 'ioredis';
import { registerRateLimits } from './http/rate-limit.ts';
import { negotiateMediaType, registerContentNegotiation } from './http/content-negotiation.ts';
import {
  ApiError,
  badRequest,
  internalError,
  notFound,
  sendDocument,
  sendError,
} from './http/jsonapi.ts';
import { apiKeyGuard } from './http/api-key-guard.ts';
import { ROUTES } from './http/routes/index.ts';
import { SERVICE_VERSION } from './version.ts';

export interface AppDeps {
  config: Readonly<Config>;
  store: Store;
  blobs: BlobStore;
  clock: Clock;
  /** Shared rate-limit counters; null keeps them in this process's memory. */
  redis?: Redis | null;
  /** Fastify logger option: false for none (tests), or pino options. */
  logger?: FastifyServerOptions['logger'];
}

/** What every route module receives: the app's dependencies and the hook of keyed endpoints. */
export interface RouteContext extends AppDeps {
  requireApiKey: ReturnType<typeof apiKeyGuard>;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    // Per-request access lines cost a fifth of a served match's throughput; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    // Brackets in query names (filter[playerNames]) must reach the routes literally.
    routerOptions: { ignoreTrailingSlash: true },
    return503OnClosing: true,
  });

  await app.register(accepts);
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: ['Origin', 'X-Title-Id', 'Authorization'],
    exposedHeaders: ['Content-Length'],
    maxAge: 86_400,
    optionsSuccessStatus: 200,
    strictPreflight: false,
  });
  // The spec compresses whenever the client accepts gzip, so no size threshold; gzip only.
  // Nothing is uploaded, so no request decompression hook on every GET.
  await app.register(compress, {
    global: true,
    threshold: 0,
    encodings: ['gzip'],
    globalDecompression: false,
  });
  registerContentNegotiation(app);
  // Collects every route's TypeBox schemas into one OpenAPI document, served at /openapi.json.
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'gamedata-api',
        version: SERVICE_VERSION,
        description:
          'Read-only JSON:API game data: players, seasons, stats, matches, telemetry, leaderboards, samples, tournaments.',
      },
      servers: [{ url: deps.config.publicBaseUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'Bearer <API key>' },
        },
      },
    },
  });

  app.setErrorHandler((error: Error, request, reply) => {
    if (error instanceof ApiError) return sendError(request, reply, error);
    if ((error as { validation?: unknown }).validation) {
      return sendError(request, reply, badRequest(error.message));
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const title = http.STATUS_CODES[status] ?? 'Bad Request';
      return sendError(request, reply, new ApiError(status, title, error.message));
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, internalError());
  });
  app.setNotFoundHandler((request, reply) => {
    request.negotiatedType = negotiateMediaType(request) ?? request.negotiatedType;
    return sendError(
      request,
      reply,
      notFound(`No resource at ${request.method} ${request.url.split('?')[0]}`),
    );
  });

  const context: RouteContext = { ...deps, requireApiKey: apiKeyGuard(deps.store, deps.clock) };
  await registerRateLimits(app, {
    redis: deps.redis ?? null,
    clock: deps.clock,
    isKeyed: (route) => [route.onRequest].flat().includes(context.requireApiKey),
  });
  for (const registerRoutes of ROUTES) registerRoutes(app, context);
  app.get('/openapi.json', { schema: { hide: true } }, (request, reply) =>
    sendDocument(request, reply, JSON.stringify(app.swagger())),
  );
  return app;
}
