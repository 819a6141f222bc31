/**
 * The one place JSON:API documents and errors are made: the error catalogue (status, title,
 * detail), error documents, and sending a rendered document with the negotiated media type.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The two media types served; the response mirrors the one the client accepted. */
export const MEDIA_TYPES = ['application/vnd.api+json', 'application/json'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** An error the API answers with a JSON:API error document; its detail is safe to show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly headers: Readonly<Record<string, string | number>> = {},
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string): ApiError => new ApiError(400, 'Bad Request', detail);

export const unauthorized = (): ApiError =>
  new ApiError(401, 'Unauthorized', 'API key invalid or missing');

export const notFound = (detail = 'The specified resource was not found'): ApiError =>
  new ApiError(404, 'Not Found', detail);

export const NO_PLAYERS_FOUND = 'No Players Found Matching Criteria';

export const unsupportedMediaType = (): ApiError =>
  new ApiError(415, 'Unsupported media type', 'Content type incorrect or not specified');

export const tooManyRequests = (retryAfterSeconds: number): ApiError =>
  new ApiError(
    429,
    'Too Many Requests',
    `Rate limit exceeded; try again in ${retryAfterSeconds} seconds`,
    { 'retry-after': retryAfterSeconds },
  );

/** A dependency (database, blob store) is failing; the client may retry after `retryAfterSeconds`. */
export const serviceUnavailable = (detail: string, retryAfterSeconds: number): ApiError =>
  new ApiError(503, 'Service Unavailable', detail, { 'retry-after': retryAfterSeconds });

/** The blob store fails (telemetry files): object storage outages are short, so retry soon. */
export const blobStoreUnavailable = (): ApiError =>
  serviceUnavailable('File storage is unavailable; try again shortly', 5);

export const internalError = (): ApiError =>
  new ApiError(500, 'Internal Server Error', 'The server could not answer this request');

/** `{"errors":[{"title":…,"detail":…}]}` */
export function errorDocument(error: Pick<ApiError, 'title' | 'detail'>): string {
  return JSON.stringify({ errors: [{ title: error.title, detail: error.detail }] });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The media type chosen from the request's Accept header (set by content negotiation). */
    negotiatedType: MediaType;
  }
}

/**
 * Sends an already rendered document (string or bytes) with the negotiated Content-Type. Strings
 * go out as bytes so the Content-Type stays exactly the media type (no `; charset` suffix).
 */
export function sendDocument(
  request: FastifyRequest,
  reply: FastifyReply,
  body: string | Buffer,
  status = 200,
): FastifyReply {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return reply.code(status).type(request.negotiatedType).send(bytes);
}

/** Sends an ApiError as a JSON:API error document. */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
): FastifyReply {
  reply.headers(error.headers);
  return sendDocument(request, reply, errorDocument(error), error.status);
}

/**
 * The URL of the current request on the public base URL, as `links.self` shows it: the path and
 * raw query the client sent, with JSON:API's bracketed parameter names left readable.
 */
export function selfLink(publicBaseUrl: string, request: FastifyRequest): string {
  return publicBaseUrl + request.url.replace(/%5B/gi, '[').replace(/%5D/gi, ']');
}
