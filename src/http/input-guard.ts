/**
 * Refuses, before any query, path and query values that no stored thing can match and that a
 * database may refuse outright: PostgreSQL rejects a NUL in text with an error (SQLite merely
 * finds nothing), so without this the same request would be a 404 on one database and a 500 on
 * the other. Also refused: values that are not valid percent-encoded UTF-8, unpaired
 * surrogates, and query values longer than any real filter — each with a JSON:API error that
 * names the parameter without echoing the input. Path values are a 404 (no such resource),
 * query values a 400 (a malformed request).
 *
 * Path values longer than Fastify's `maxParamLength` and malformed percent-encoding in the path
 * never reach a route: the router refuses them first.
 */
import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import { badRequest, notFound } from './jsonapi.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false for a hot route that checks its own parameters (matches: `unstorableCharacter`). */
    inputGuard?: boolean;
  }
}

/** Longest query value accepted, in characters: ten of the longest real ids fit many times over. */
export const MAX_QUERY_VALUE_LENGTH = 1_000;
/** Longest parameter name quoted back in an error. */
const MAX_QUOTED_NAME = 40;

const isWellFormed = (value: string): boolean =>
  (value as unknown as { isWellFormed(): boolean }).isWellFormed();

/** What in `value` no stored id, name or time can contain; null when nothing. */
export function unstorableCharacter(value: string): string | null {
  if (value.includes('\0')) return 'a NUL character';
  if (!isWellFormed(value)) return 'an unpaired surrogate';
  return null;
}

/** A parameter name fit to quote in an error: short, printable. */
function quoteName(name: string): string {
  const printable = name.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > MAX_QUOTED_NAME ? `${printable.slice(0, MAX_QUOTED_NAME)}…` : printable;
}

/** The name of the first raw `name=value` pair that is not valid percent-encoded UTF-8, if any. */
function badlyEncodedParameter(rawQuery: string): string | null {
  for (const pair of rawQuery.split('&')) {
    if (!pair.includes('%')) continue;
    try {
      decodeURIComponent(pair);
    } catch {
      const rawName = pair.split('=', 1)[0]!;
      try {
        return decodeURIComponent(rawName);
      } catch {
        return rawName;
      }
    }
  }
  return null;
}

function checkQuery(request: FastifyRequest): void {
  const queryStart = request.url.indexOf('?');
  if (queryStart === -1) return;
  const rawQuery = request.url.slice(queryStart + 1);
  if (rawQuery.includes('%')) {
    const name = badlyEncodedParameter(rawQuery);
    if (name !== null) {
      throw badRequest(`Query parameter '${quoteName(name)}' is not valid percent-encoded UTF-8`);
    }
  }
  const query = request.query as Record<string, string | string[] | undefined>;
  for (const name of Object.keys(query)) {
    const given = query[name];
    for (const value of Array.isArray(given) ? given : [given]) {
      if (typeof value !== 'string') continue;
      if (value.length > MAX_QUERY_VALUE_LENGTH) {
        throw badRequest(
          `Query parameter '${quoteName(name)}' is ${value.length} characters long; at most ${MAX_QUERY_VALUE_LENGTH} are accepted`,
        );
      }
      const reason = unstorableCharacter(value);
      if (reason !== null) {
        throw badRequest(`Query parameter '${quoteName(name)}' contains ${reason}`);
      }
    }
  }
}

function checkPath(request: FastifyRequest): void {
  const params = request.params as Record<string, unknown> | undefined;
  if (params === undefined) return;
  for (const name of Object.keys(params)) {
    const value = params[name];
    if (typeof value !== 'string') continue;
    const reason = unstorableCharacter(value);
    if (reason !== null) {
      throw notFound(
        `Path parameter '${quoteName(name)}' contains ${reason}; nothing stored has one`,
      );
    }
  }
}

const guard: preValidationHookHandler = (request, _reply, done) => {
  try {
    checkPath(request);
    checkQuery(request);
  } catch (error) {
    return done(error as Error);
  }
  done();
};

/**
 * Checks the path and query values of every route but those marked `inputGuard: false`, before
 * their schemas and handlers see them. Must be called before routes are added.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.inputGuard === false || route.method === 'OPTIONS') return;
    const existing = route.preValidation ?? [];
    route.preValidation = [guard, ...(Array.isArray(existing) ? existing : [existing])];
  });
}
