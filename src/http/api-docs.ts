/**
 * `GET /docs`: an interactive reference built from the OpenAPI document (Swagger UI, through
 * @fastify/swagger-ui). Every asset is served by this instance — nothing comes from a CDN, so it
 * works offline — and a Content-Security-Policy holds the page to that: scripts, styles and
 * fonts from here, requests ("Try it out") to here and to the public base URL only.
 */
import type { FastifyInstance } from 'fastify';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from '../config.ts';

export const DOCS_PREFIX = '/docs';

/** The top bar's logo: the service's name, drawn as text. */
const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="180" height="40" viewBox="0 0 180 40">' +
  '<text x="0" y="28" font-family="sans-serif" font-size="24" font-weight="bold" fill="#fff">' +
  'gamedata-api</text></svg>';

/** The page's Content-Security-Policy; `api` is the origin its requests go to. */
function contentSecurityPolicy(api: string): string {
  return [
    "default-src 'self'",
    `connect-src 'self' ${api}`,
    "img-src 'self' data:",
    // Swagger UI sets inline styles on the elements it renders.
    "style-src 'self' 'unsafe-inline'",
    "script-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Registers the docs page under `/docs`. Its routes are not JSON:API (HTML, scripts, styles),
 * so this must be called before content negotiation is registered.
 */
export async function registerApiDocs(
  app: FastifyInstance,
  config: Pick<Config, 'publicBaseUrl'>,
): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    staticCSP: contentSecurityPolicy(new URL(config.publicBaseUrl).origin),
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO) },
    theme: { title: 'gamedata-api reference' },
    uiConfig: {
      deepLinking: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      displayOperationId: true,
      filter: true,
      persistAuthorization: false,
      tryItOutEnabled: true,
    },
  });
}
