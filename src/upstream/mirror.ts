/**
 * The mirror of an upstream API (UPSTREAM_URL): one client, whose key budgets every reader
 * shares, and the read-through fetchers the routes and the crawler call. Built only when an
 * upstream is configured; without one nothing here exists and the service answers as before.
 */
import type { Config } from '../config.ts';
import type { IngestDeps } from '../ingest/ingest-deps.ts';
import { tooManyRequests, serviceUnavailable, type ApiError } from '../http/jsonapi.ts';
import { MatchMirror } from './mirror-matches.ts';
import { UpstreamBusyError, UpstreamClient, UpstreamUnavailableError } from './upstream-client.ts';

export interface Mirror {
  client: UpstreamClient;
  matches: MatchMirror;
}

/** The mirror of `config.upstream`, or null when none is configured. */
export function createMirror(
  deps: Omit<IngestDeps, 'config'> & { config: Readonly<Config> },
  log: (message: string) => void = () => {},
): Mirror | null {
  const { upstream } = deps.config;
  if (upstream === null) return null;
  const client = new UpstreamClient(upstream);
  return { client, matches: new MatchMirror(deps, client, log) };
}

/**
 * The answer to a client when the upstream cannot give what the store lacks: 429 when the
 * upstream budget is spent, 503 when it is down — both with Retry-After. Null for other errors.
 */
export function upstreamApiError(error: unknown): ApiError | null {
  if (error instanceof UpstreamBusyError) {
    return tooManyRequests(Math.max(1, Math.ceil(error.retryAfterMs / 1000)));
  }
  if (error instanceof UpstreamUnavailableError) {
    return serviceUnavailable(
      'The upstream API is unavailable and this is not stored here; try again later',
      Math.max(1, Math.ceil(error.retryAfterMs / 1000)),
    );
  }
  return null;
}
