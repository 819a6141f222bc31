/**
 * The mirror of an upstream API (UPSTREAM_URL): one client, whose key budgets every reader
 * shares, and the read-through fetchers the routes and the crawler call. Built only when an
 * upstream is configured; without one nothing here exists and the service answers as before.
 */
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { IngestDeps } from '../ingest/ingest-deps.ts';
import { MatchMirror } from './mirror-matches.ts';
import { UpstreamClient } from './upstream-client.ts';
import { SharedKeyBudgets } from './shared-key-budget.ts';
import { PlayerMirror } from './mirror-players.ts';
import { DocumentMirror, LIST_CURSOR_PREFIX } from './mirror-documents.ts';
import { RecordingMirror } from './mirror-recordings.ts';

export { upstreamApiError } from './upstream-errors.ts';

export interface Mirror {
  client: UpstreamClient;
  matches: MatchMirror;
  players: PlayerMirror;
  /** Season, lifetime and ranked stats, mastery and clans, kept as recorded. */
  documents: DocumentMirror;
  /** Seasons lists, leaderboards and samples, kept as recorded (their own, shorter TTL). */
  lists: DocumentMirror;
  /** Watched players' season, lifetime and ranked stats and mastery, kept as recorded. */
  recordings: RecordingMirror;
}

/**
 * The mirror of `config.upstream`, or null when none is configured. With `deps.redis` (REDIS_URL)
 * the key budgets are shared by every instance using that Redis.
 */
export function createMirror(
  deps: Omit<IngestDeps, 'config'> & { config: Readonly<Config>; redis?: Redis | null },
  log: (message: string) => void = () => {},
): Mirror | null {
  const { upstream } = deps.config;
  if (upstream === null) return null;
  const client = new UpstreamClient(
    upstream,
    deps.redis ? new SharedKeyBudgets(upstream.keys, upstream.url, deps.redis, log) : undefined,
  );
  const matches = new MatchMirror(deps, client, log);
  const players = new PlayerMirror(deps, client, matches, upstream.ttlMs.players, log);
  const documents = new DocumentMirror(deps, client, upstream.ttlMs.stats, log);
  const lists = new DocumentMirror(deps, client, upstream.ttlMs.lists, log, LIST_CURSOR_PREFIX);
  const recordings = new RecordingMirror(deps, client, documents);
  return { client, matches, players, documents, lists, recordings };
}
