/**
 * How Fastify's own failures become JSON:API errors: thrown ApiErrors as they are, schema
 * validation as 400, other client errors with their status, a failing blob store or a database
 * that does not answer as 503 with Retry-After, everything else a 500 that leaks nothing (and
 * is logged).
 */
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { isStoreUnavailable } from '../store/store-errors.ts';
import { negotiateMediaType } from './content-negotiation.ts';
import { BlobStoreUnavailableError } from '../blobs/blob-store.ts';
import { unroutedRequestError } from './framework-errors.ts';
import {
  ApiError,
  badRequest,
  blobStoreUnavailable,
  internalError,
  sendError,
  serviceUnavailable,
} from './jsonapi.ts';

/** Seconds a client is asked to wait when the database does not answer. */
export const STORE_RETRY_AFTER_SECONDS = 5;

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: Error, request, reply) => {
    if (error instanceof ApiError) return sendError(request, reply, error);
    if (error instanceof BlobStoreUnavailableError) {
      request.log.warn({ err: error }, 'blob store unavailable');
      return sendError(request, reply, blobStoreUnavailable());
    }
    if (isStoreUnavailable(error)) {
      // The store logs the outage once (src/store/store-errors.ts); not once per request.
      request.log.debug({ err: error }, 'store unavailable');
      return sendError(
        request,
        reply,
        serviceUnavailable(
          'The database does not answer right now; try again shortly',
          STORE_RETRY_AFTER_SECONDS,
        ),
      );
    }
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
    return sendError(request, reply, unroutedRequestError(app, request));
  });
}
