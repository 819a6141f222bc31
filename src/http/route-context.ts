/**
 * What the app is built from and what every route module receives. A module of its own so that
 * route files do not import `src/app.ts`, which imports them.
 */
import type { FastifyBaseLogger, onRequestAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { Clock } from '../clock.ts';
import type { Store } from '../store/store.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import type { ChangeFeed } from '../store/change-feed.ts';
import type { AppMetrics } from './metrics.ts';
import type { Mirror } from '../upstream/mirror.ts';
import type { JobProgress } from '../jobs/job-progress.ts';
import type { KeyedDocuments } from './keyed-documents.ts';
import type { FastPath } from './fast-path.ts';
import type { PreparePool } from '../ingest/prepare-pool.ts';

export interface AppDeps {
  config: Readonly<Config>;
  store: Store;
  blobs: BlobStore;
  clock: Clock;
  /** Shared rate-limit counters; null keeps them in this process's memory. */
  redis?: Redis | null;
  /**
   * The change feed caches subscribe to. By default the app reads its own from the store (and
   * stops it on close); one handed in is started here and stopped by its owner.
   */
  changes?: ChangeFeed;
  /**
   * Jobs whose missing output is being built since the start: their resources answer 503 with
   * Retry-After meanwhile (absent: never, as with JOBS=off).
   */
  jobProgress?: JobProgress;
  /** Where the app logs (a pino logger writing JSON lines); false or absent for none (tests). */
  logger?: FastifyBaseLogger | false;
  /**
   * The upstream mirror, shared with the crawler so both spend one budget. By default the app
   * builds its own when UPSTREAM_URL is set.
   */
  mirror?: Mirror | null;
  /**
   * Worker threads that prepare the matches posted to `POST /ingest/matches` (parse, validate,
   * gzip, render, tally), so that a large match does not hold up the requests served meanwhile;
   * absent or null: prepared on the serving thread. Its owner closes it.
   */
  ingestPool?: PreparePool | null;
}

/** The app's dependencies plus the hook that guards keyed endpoints. */
export interface RouteContext extends AppDeps {
  requireApiKey: onRequestAsyncHookHandler;
  /** Announced changes of the shared database: subscribe to drop what a cache holds. */
  changes: ChangeFeed;
  /** Null with METRICS=off; routes only hand it what it reads at scrape time (their caches). */
  metrics: AppMetrics | null;
  /** Fetches what the store lacks from UPSTREAM_URL; null without an upstream. */
  mirror: Mirror | null;
  /** The keyed documents' rendered bytes (src/http/keyed-documents.ts), shared by the routes. */
  documents: KeyedDocuments;
  /** Where a route's cache offers its hits to be answered outside Fastify (src/http/fast-path.ts). */
  fastPath: Pick<FastPath, 'add'>;
}
