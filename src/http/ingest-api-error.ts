/**
 * How the ingest endpoints answer what ingest or the body parser refused, as JSON:API errors:
 * invalid input 400 (the field named), a match not stored 404, a different telemetry file 409,
 * too large 413 (counted unzipped), not JSON 415.
 */
import type { FastifyError } from 'fastify';
import {
  IngestError,
  IngestTooLargeError,
  MatchNotStoredError,
  TelemetryConflictError,
} from '../ingest/ingest-error.ts';
import { ApiError, badRequest, notFound } from './jsonapi.ts';

/** The media types the ingest endpoints take. */
export const JSON_TYPES = ['application/json', 'application/vnd.api+json'];

/** The JSON:API error for what ingest or the body parser refused; other errors pass as they are. */
export function ingestApiError(error: FastifyError | Error, limitMb: number): Error {
  const tooLarge = (detail: string) => new ApiError(413, 'Payload Too Large', detail);
  if (error instanceof IngestError) return badRequest(error.message);
  if (error instanceof IngestTooLargeError) return tooLarge(error.message);
  if (error instanceof TelemetryConflictError) return new ApiError(409, 'Conflict', error.message);
  if (error instanceof MatchNotStoredError) return notFound(error.message);
  switch ((error as FastifyError).code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return tooLarge(`The body is larger than ${limitMb} MB (INGEST_MAX_MB), counted unzipped`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_EMPTY_TYPE':
      return new ApiError(
        415,
        'Unsupported media type',
        `Send JSON: Content-Type ${JSON_TYPES.join(' or ')}`,
      );
    default:
      return error;
  }
}
