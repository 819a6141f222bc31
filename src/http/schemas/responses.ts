/**
 * Pieces of route schemas: documented responses (a document under both media types, an error,
 * a 304) and the path parameters most routes share. Response schemas only document — they are
 * never used to serialize or check a response (see `openapi.ts`).
 */
import http from 'node:http';
import { Type, type TSchema } from '@sinclair/typebox';
import { MEDIA_TYPES } from '../jsonapi.ts';
import { ErrorDocument } from './json-api.ts';

/** A documented header of a response. */
export interface HeaderDoc {
  type: 'integer' | 'string';
  description: string;
}

/** The 200 of a route: `schema` under both media types, its first example shown. */
export function documentResponse(
  description: string,
  schema: TSchema,
  headers?: Record<string, HeaderDoc>,
) {
  // A component of the document: Type.Ref refuses a schema without an $id.
  const ref = Type.Ref(schema);
  const example = (schema.examples as unknown[] | undefined)?.[0];
  return {
    description,
    ...(headers ? { headers } : {}),
    content: Object.fromEntries(
      MEDIA_TYPES.map((type) => [type, { schema: ref, ...(example ? { example } : {}) }]),
    ),
  };
}

/** Titles as the API sends them: the status text, but `Unsupported media type` (the real API's). */
export const errorTitle = (status: number): string =>
  status === 415 ? 'Unsupported media type' : (http.STATUS_CODES[status] ?? 'Error');

/** An error a route answers, `when` saying what causes it (also the example's detail). */
export function errorResponse(status: number, when: string, headers?: Record<string, HeaderDoc>) {
  const example = { errors: [{ title: errorTitle(status), detail: when }] };
  return {
    description: when,
    ...(headers ? { headers } : {}),
    content: Object.fromEntries(
      MEDIA_TYPES.map((type) => [type, { schema: Type.Ref(ErrorDocument), example }]),
    ),
  };
}

/** Headers of answers that never change while they exist (matches, telemetry files). */
export const IMMUTABLE_HEADERS: Record<string, HeaderDoc> = {
  ETag: { type: 'string', description: 'Strong entity tag; the gzip form has its own' },
  'Cache-Control': {
    type: 'string',
    description: '`public, max-age=<seconds until the match leaves retention>, immutable`',
  },
  Deprecation: {
    type: 'string',
    description: '`true` when the request used a platform-region shard',
  },
};

/** The answer to a conditional GET whose ETag is current. */
export const notModified = {
  description: 'Not Modified: the entity tag in `If-None-Match` is current; no body.',
  type: 'null',
} as const;
