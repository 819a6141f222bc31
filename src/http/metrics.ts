/**
 * The service's Prometheus metrics, all defined here, in one registry per app (several apps in
 * one process never share series). They are recorded by hooks and collectors — an onResponse
 * hook per route, the scheduler's observer, a blob store decorator, readings of the match cache
 * and the database pool at scrape time — never by calls in handlers. `registerMetrics` wires
 * them to an app; `/metrics` serves them with the process metrics.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { JobObserver } from '../jobs/scheduler.ts';
import type { Store } from '../store/store.ts';
import type { BlobOperation } from '../blobs/observed-blob-store.ts';

/** Request latency buckets, in seconds: most answers take well under a millisecond. */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Ingest and job buckets, in seconds: a match takes tens of ms, a job up to minutes. */
const SLOW_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900];

/** What a cache reports: its lookups so far and what it holds. */
export interface CacheReadings {
  hits: number;
  misses: number;
  /** Bytes held. */
  size: number;
  /** Entries held. */
  count: number;
}

let processRegistry: Registry | null = null;

/**
 * Node's process metrics (CPU, memory, event loop lag, GC, handles). They describe the process,
 * not an app, and prom-client starts an event-loop monitor and a GC observer for each registry
 * it collects them into — so there is one such registry per process, made on first use.
 */
function processMetrics(): Registry {
  if (processRegistry === null) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export type AppMetrics = ReturnType<typeof createAppMetrics>;

/** Creates an app's metrics; `store` is read at scrape time for its pool. */
export function createAppMetrics(store: Pick<Store, 'poolStats'>) {
  const registry = new Registry();
  const registers = [registry];
  const caches = new Map<string, CacheReadings>();

  const httpLabels = ['method', 'route', 'status'] as const;
  const metrics = {
    registry,
    httpDuration: new Histogram({
      name: 'gamedata_http_request_duration_seconds',
      help: 'Time from receiving a request to the end of its response, by method, route and status.',
      labelNames: httpLabels,
      buckets: HTTP_BUCKETS,
      registers,
    }),
    parserRefusals: new Counter({
      name: 'gamedata_http_parser_refusals_total',
      help: "Requests refused by Node's HTTP parser before any route (malformed request line or headers, headers over the size limit, an unknown method), by the status answered.",
      labelNames: ['status'] as const,
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: 'gamedata_rate_limit_refusals_total',
      help: 'Requests refused with 429 because their API key spent its budget, by route.',
      labelNames: ['route'] as const,
      registers,
    }),
    ingestRequests: new Counter({
      name: 'gamedata_ingest_requests_total',
      help: 'Ingest requests by route and result: created (201), duplicate (other 2xx, nothing changed), rejected (4xx), failed (5xx).',
      labelNames: ['route', 'result'] as const,
      registers,
    }),
    ingestDuration: new Histogram({
      name: 'gamedata_ingest_duration_seconds',
      help: 'Time to answer an ingest request, by route and result.',
      labelNames: ['route', 'result'] as const,
      buckets: SLOW_BUCKETS,
      registers,
    }),
    jobRuns: new Counter({
      name: 'gamedata_job_runs_total',
      help: 'Job runs started by the scheduler, by job and outcome (locked: another instance held the lease).',
      labelNames: ['job', 'outcome'] as const,
      registers,
    }),
    jobDuration: new Histogram({
      name: 'gamedata_job_duration_seconds',
      help: 'Duration of scheduled job runs, by job and outcome.',
      labelNames: ['job', 'outcome'] as const,
      buckets: SLOW_BUCKETS,
      registers,
    }),
    blobErrors: new Counter({
      name: 'gamedata_blob_store_errors_total',
      help: 'Failed telemetry blob store operations (put, get — also a read stream failing part-way — and delete).',
      labelNames: ['operation'] as const,
      registers,
    }),
  };

  // The request count is the histogram's `_count`, also exported under the conventional name;
  // copying it at scrape time keeps an answer to one observation.
  new Counter({
    name: 'gamedata_http_requests_total',
    help: 'HTTP requests answered, by method, route template (unmatched: no route) and status.',
    labelNames: httpLabels,
    registers,
    async collect() {
      this.reset();
      for (const { metricName, labels, value } of (await metrics.httpDuration.get()).values) {
        if (metricName === 'gamedata_http_request_duration_seconds_count') this.inc(labels, value);
      }
    },
  });
  new Counter({
    name: 'gamedata_cache_lookups_total',
    help: 'Lookups in the in-memory document caches, by cache (match) and result (hit, miss).',
    labelNames: ['cache', 'result'] as const,
    registers,
    collect() {
      this.reset();
      for (const [cache, readings] of caches) {
        this.inc({ cache, result: 'hit' }, readings.hits);
        this.inc({ cache, result: 'miss' }, readings.misses);
      }
    },
  });
  new Gauge({
    name: 'gamedata_cache_bytes',
    help: 'Bytes held by the in-memory document caches, by cache.',
    labelNames: ['cache'] as const,
    registers,
    collect() {
      for (const [cache, readings] of caches) this.set({ cache }, readings.size);
    },
  });
  if (store.poolStats !== undefined) {
    const poolStats = store.poolStats;
    new Gauge({
      name: 'gamedata_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle) and queries waiting for one (waiting).',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const stats = poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }

  const jobObserver: JobObserver = {
    jobStarted(job) {
      const stopTimer = metrics.jobDuration.startTimer({ job });
      return (outcome) => {
        stopTimer({ outcome });
        metrics.jobRuns.inc({ job, outcome });
      };
    },
  };

  return {
    ...metrics,
    jobObserver,
    /** Reports a blob store failure (the listener of `observedBlobStore`). */
    blobFailed: (operation: BlobOperation): void => void metrics.blobErrors.inc({ operation }),
    /** Reads a cache's hit and miss counts and size at every scrape. */
    watchCache(name: string, cache: CacheReadings): void {
      caches.set(name, cache);
    },
    /** The Prometheus text exposition of this app's metrics and the process's. */
    async exposition(): Promise<string> {
      return (await processMetrics().metrics()) + (await registry.metrics());
    },
    contentType: registry.contentType,
  };
}
