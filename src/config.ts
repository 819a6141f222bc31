/**
 * The service's configuration, read from environment variables once at start-up. Every problem
 * is reported at once; the result is typed and frozen. Each variable is documented in the README
 * table, generated from the descriptions below (`gamedata config --markdown`).
 */
import os from 'node:os';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { VENDOR_SHARD_ALIASES, isPlatform, isRegion } from './domain/shards.ts';

const Env = Type.Object({
  PORT: Type.Integer({
    minimum: 1,
    maximum: 65535,
    default: 8080,
    description: 'TCP port the API listens on.',
  }),
  HOST: Type.String({
    minLength: 1,
    default: '0.0.0.0',
    description: 'Interface the API binds to.',
  }),
  DATA_DIR: Type.String({
    minLength: 1,
    default: './data',
    description: 'Directory for the SQLite file, telemetry files and the demo key file.',
  }),
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^(postgres(ql)?://|sqlite:|file:).+',
      description:
        'Store location: `postgres://…` selects PostgreSQL; `sqlite:<file>` a SQLite file. Default: `sqlite:<DATA_DIR>/gamedata.sqlite`.',
    }),
  ),
  DATABASE_STARTUP_TIMEOUT_SECONDS: Type.Integer({
    minimum: 0,
    default: 60,
    description:
      'Seconds a start waits for an unreachable database, retrying with a log line per attempt, before exiting 1; 0: one attempt.',
  }),
  DATABASE_CONNECT_TIMEOUT_SECONDS: Type.Integer({
    minimum: 1,
    default: 5,
    description:
      'PostgreSQL: seconds a request waits for a connection before answering 503 (the database is down or every connection is busy).',
  }),
  DATABASE_STATEMENT_TIMEOUT_SECONDS: Type.Integer({
    minimum: 1,
    default: 30,
    description:
      'PostgreSQL: seconds a statement may run (`statement_timeout`) before it is cancelled; a request then answers 503.',
  }),
  PUBLIC_BASE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      description:
        'Origin clients reach the API on, used in every `links.self`. Default: `http://localhost:<PORT>`.',
    }),
  ),
  TELEMETRY_BASE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      description:
        'Base of telemetry file URLs in match assets (a CDN in front of the blob store). Default: `<PUBLIC_BASE_URL>/telemetry`.',
    }),
  ),
  BLOB_STORE_URL: Type.Optional(
    Type.String({
      pattern: '^s3://',
      description:
        'Telemetry files in S3-compatible object storage: `s3://<bucket>[/<prefix>]`. Default: the directory `<DATA_DIR>/blobs`.',
    }),
  ),
  S3_ENDPOINT: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s/?#]+/?$',
      description:
        'Endpoint of an S3-compatible store (`http://minio:9000`). Default: AWS S3 of the region.',
    }),
  ),
  S3_FORCE_PATH_STYLE: Type.Boolean({
    default: false,
    description:
      '`true`: address the bucket in the path (`<endpoint>/<bucket>/…`), as most S3-compatible stores need; `false`: as a host name.',
  }),
  S3_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 600_000,
    default: 3000,
    description:
      'Milliseconds to connect to the object store and to get its answer; each request is tried twice, a transfer idle 4× as long is cut.',
  }),
  DEMO_DATA: Type.Union([Type.Literal('auto'), Type.Literal('off')], {
    default: 'auto',
    description:
      '`auto`: `serve` generates the demo data set when the store is empty; `off`: never.',
  }),
  DEMO_API_KEY: Type.Optional(
    Type.String({
      minLength: 8,
      pattern: '^\\S+$',
      description:
        'When set, the demo data registers exactly this API key (instead of a random one).',
    }),
  ),
  DEMO_SEED: Type.Integer({ default: 1, description: 'Seed of the demo data generator.' }),
  RETENTION_DAYS: Type.Integer({
    minimum: 0,
    default: 14,
    description: 'Days match data is kept and served; 0 keeps it forever (an archive).',
  }),
  SHARD_ALIASES: Type.String({
    default: 'vendor',
    pattern: '^(vendor|none|vendor,)?([a-z0-9-]+=[a-z0-9-]+)?(,[a-z0-9-]+=[a-z0-9-]+)*$',
    description:
      "Extra shard spellings, `alias=shard,…`; `vendor` (default) accepts the real service's names (steam, kakao, psn, xbox, psn-eu …), `none` only the spec's.",
  }),
  REDIS_URL: Type.Optional(
    Type.String({
      pattern: '^rediss?://.+',
      description:
        'Redis for rate-limit counters shared by every instance (`redis://host:6379`). Default: counters in memory.',
    }),
  ),
  RATE_LIMIT_PER_MINUTE: Type.Integer({
    minimum: 1,
    default: 10,
    description:
      'Default per-minute request budget of a new API key (`keys create --rpm` overrides).',
  }),
  INGEST_MAX_MB: Type.Integer({
    minimum: 1,
    default: 64,
    description:
      'Largest match or telemetry file `POST`/`PUT /ingest/…` accept, counted unzipped (megabytes); 413 beyond.',
  }),
  INGEST_WORKERS: Type.Optional(
    Type.Integer({
      minimum: 0,
      description:
        'Workers preparing matches (parse, validate, telemetry gzip, rendering): threads while `gamedata ingest` writes a directory, and processes that also store the matches (and telemetry files) posted to `serve` while it answers other requests; default: one fewer than the cores (for `serve` at least 1); 0 prepares them on the main thread.',
    }),
  ),
  INGEST_NICE: Type.Integer({
    minimum: 0,
    maximum: 19,
    default: 10,
    description:
      'Scheduling niceness of the worker processes preparing matches posted to `serve`, every thread of them, and of its WAL checkpoint thread (Linux; 0: as serving): a posted match takes the CPU serving leaves first.',
  }),
  INGEST_RATE_LIMIT_PER_MINUTE: Type.Integer({
    minimum: 1,
    default: 120,
    description:
      'Per-minute ingest budget of a new ingest key (`keys create --scope ingest --rpm` overrides).',
  }),
  JOBS: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    default: 'on',
    description:
      '`on`: `serve` runs the leaderboard, samples and retention jobs on schedule; `off`: never.',
  }),
  JOB_NICE: Type.Integer({
    minimum: 0,
    maximum: 19,
    default: 19,
    description:
      'Scheduling niceness of the job thread of `serve` and of `gamedata jobs run` (Linux; 19: lowest priority, 0: as serving).',
  }),
  LEADERBOARD_INTERVAL_MINUTES: Type.Integer({
    minimum: 1,
    default: 120,
    description: 'Minutes between leaderboard rebuilds.',
  }),
  SAMPLES_INTERVAL_HOURS: Type.Integer({
    minimum: 1,
    default: 24,
    description: 'Hours between sample lists of a region.',
  }),
  SAMPLE_SIZE: Type.Integer({
    minimum: 1,
    default: 500,
    description: "Matches picked at random for one region's sample list.",
  }),
  RETENTION_INTERVAL_MINUTES: Type.Integer({
    minimum: 1,
    default: 60,
    description: 'Minutes between retention purges.',
  }),
  MATCH_CACHE_MB: Type.Integer({
    minimum: 0,
    default: 64,
    description: 'Memory for rendered match documents kept hot (megabytes).',
  }),
  TELEMETRY_CACHE_MB: Type.Integer({
    minimum: 0,
    default: 64,
    description:
      'Memory for telemetry files kept hot, gzip as stored (megabytes); 0: every file is streamed from the blob store.',
  }),
  DOCUMENT_CACHE_MB: Type.Integer({
    minimum: 0,
    default: 64,
    description:
      'Memory for rendered keyed documents (players, stats, mastery, clans, seasons, samples, tournaments, leaderboards), both encodings, in megabytes; 0 renders every request.',
  }),
  ACCESS_LOG: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    default: 'on',
    description:
      '`on`: one JSON log line per request (method, route, status, duration, request id, key id); `off`: none.',
  }),
  SHUTDOWN_GRACE_SECONDS: Type.Integer({
    minimum: 0,
    maximum: 3600,
    default: 10,
    description:
      'Seconds SIGTERM/SIGINT waits for in-flight requests, ingests and jobs before closing what remains.',
  }),
  METRICS: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    default: 'on',
    description:
      '`on`: Prometheus metrics at `GET /metrics` (keep it off the public internet); `off`: no route, no recording.',
  }),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      pattern: '^\\S+$',
      description:
        'When set, `GET /metrics` answers only requests with `Authorization: Bearer <token>`. Default: no token.',
    }),
  ),
  UPSTREAM_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      description:
        'Base URL of an upstream API of the same wire format to mirror (read-through cache, archive and crawler). Default: none, no mirroring.',
    }),
  ),
  UPSTREAM_API_KEYS: Type.Optional(
    Type.String({
      pattern: '^[^\\s,]+(,[^\\s,]+)*$',
      description:
        'Keys of the upstream API, comma-separated; requests are spread over them. Required with UPSTREAM_URL; never logged.',
    }),
  ),
  UPSTREAM_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 120_000,
    default: 10_000,
    description:
      'Milliseconds an upstream request may take (telemetry files included) before it counts as an outage.',
  }),
  UPSTREAM_PLAYER_TTL_SECONDS: Type.Integer({
    minimum: 0,
    default: 600,
    description: 'Seconds a mirrored player is served before it is fetched again.',
  }),
  UPSTREAM_STATS_TTL_SECONDS: Type.Integer({
    minimum: 0,
    default: 3600,
    description:
      'Seconds mirrored season, lifetime and ranked stats and mastery are served before they are fetched again.',
  }),
  UPSTREAM_LIST_TTL_SECONDS: Type.Integer({
    minimum: 0,
    default: 3600,
    description:
      'Seconds mirrored seasons, leaderboards and samples are served before they are fetched again.',
  }),
  MIRROR_INTERVAL_MINUTES: Type.Integer({
    minimum: 1,
    default: 10,
    description:
      'Minutes between crawl passes of the upstream (samples, matches, telemetry, watched players) that `serve` runs.',
  }),
  MIRROR_SHARDS: Type.String({
    default: 'pc-a,pc-b,console-a,console-b',
    pattern: '^[a-z0-9-]+(,[a-z0-9-]+)*$',
    description:
      'Shards whose upstream samples the crawl of `serve` walks (and `gamedata mirror` without --shard), comma-separated.',
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'pino log level.' },
  ),
  LOG_FLUSH_MS: Type.Integer({
    minimum: 1,
    maximum: 600_000,
    default: 100,
    description:
      'Longest a log line of `serve` waits in its buffer before it is written, ms (lines are written sooner once 32 KB wait, and all of them at exit).',
  }),
});

export const CONFIG_VARIABLES = Env.properties;

/** Variables holding secrets: a problem with one never repeats its value. */
const SECRET_VARIABLES = new Set(['UPSTREAM_API_KEYS']);

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  /** How long opening the store retries an unreachable database, ms (0: once). */
  databaseStartupTimeoutMs: number;
  /** PostgreSQL: longest wait for a connection, ms. */
  databaseConnectTimeoutMs: number;
  /** PostgreSQL: longest statement, ms. */
  databaseStatementTimeoutMs: number;
  publicBaseUrl: string;
  telemetryBaseUrl: string;
  /** Where telemetry files are stored. */
  blobStore: BlobStoreLocation;
  demoData: 'auto' | 'off';
  demoApiKey: string | null;
  demoSeed: number;
  /** Days match data is served; 0 = forever. */
  retentionDays: number;
  shardAliases: Readonly<Record<string, string>>;
  redisUrl: string | null;
  defaultRatePerMinute: number;
  /** Largest ingest body or telemetry file, in bytes once unzipped. */
  ingestMaxBytes: number;
  /**
   * Workers preparing matches for `gamedata ingest` (threads) and `POST /ingest/matches`
   * (processes; 0: on the main thread); null when INGEST_WORKERS is not set (see ingestWorkersOf).
   */
  ingestWorkers: number | null;
  /** Niceness of `serve`'s prepare workers (INGEST_NICE). */
  ingestNice: number;
  /** Default per-minute budget of an ingest key. */
  ingestRatePerMinute: number;
  matchCacheBytes: number;
  /** Budget of the telemetry files served from memory, bytes (0: none). */
  telemetryCacheBytes: number;
  /** Bytes of rendered keyed documents kept (DOCUMENT_CACHE_MB); 0 disables that cache. */
  documentCacheBytes: number;
  jobs: 'on' | 'off';
  /** Niceness jobs run at (0–19), so a job only takes CPU that serving leaves idle. */
  jobNice: number;
  leaderboardIntervalMinutes: number;
  samplesIntervalHours: number;
  sampleSize: number;
  retentionIntervalMinutes: number;
  metrics: 'on' | 'off';
  /** Bearer token `/metrics` requires; null: none. */
  metricsToken: string | null;
  logLevel: string;
  /** Longest a log line of `serve` is buffered before it is written, ms. */
  logFlushMs: number;
  accessLog: boolean;
  /** How long a stop signal waits for in-flight work before cutting it off, in ms. */
  shutdownGraceMs: number;
  /** The API mirrored; null: none (the service holds only what is ingested). */
  upstream: UpstreamConfig | null;
  /** Minutes between two crawl passes of the mirror job. */
  mirrorIntervalMinutes: number;
  /** Shards whose upstream samples a crawl pass walks (platforms or regions). */
  mirrorShards: readonly string[];
}

/** Where the mirrored API is and how long what changes is served before it is fetched again. */
export interface UpstreamConfig {
  /** Base URL without a trailing slash. */
  url: string;
  /** Upstream API keys (secrets: never logged, never in a response). */
  keys: readonly string[];
  /** Bound of one upstream request, ms. */
  timeoutMs: number;
  /** Time to live of mirrored players, stats and mastery, and of lists, in ms. */
  ttlMs: Readonly<{ players: number; stats: number; lists: number }>;
}

/** A directory of the local file system, or a bucket (and key prefix) of S3-compatible storage. */
export type BlobStoreLocation =
  | { kind: 'directory'; root: string }
  | {
      kind: 's3';
      bucket: string;
      /** Key prefix without leading or trailing slash; '' for the bucket's root. */
      prefix: string;
      /** Null: AWS S3 itself, the endpoint derived from the region. */
      endpoint: string | null;
      forcePathStyle: boolean;
      /** Per-attempt bound of connecting and of waiting for an answer, ms. */
      timeoutMs: number;
    };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * Validates the environment and returns the frozen config, or throws a ConfigError listing every
 * problem found.
 */
export function loadConfig(env: Record<string, string | undefined>): Readonly<Config> {
  const raw: Record<string, unknown> = {};
  for (const name of Object.keys(Env.properties)) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[name] = value;
  }
  const values = Value.Convert(Env, Value.Default(Env, raw));
  const errors = [...Value.Errors(Env, values)];
  const problems = errors.map(
    (error) =>
      `${error.path.slice(1) || 'environment'}: ${error.message} (got ${
        SECRET_VARIABLES.has(error.path.slice(1))
          ? 'a value not shown'
          : JSON.stringify(error.value)
      })`,
  );
  const parsed = values as Static<typeof Env>;
  // Checks beyond the schema run on the variables the schema accepted, so that a second problem
  // of another variable is reported along with the first, not after it is fixed.
  const invalid = new Set(errors.map((error) => error.path.slice(1)));
  const aliases = invalid.has('SHARD_ALIASES')
    ? {}
    : parseShardAliases(parsed.SHARD_ALIASES, problems);
  const dataDir = path.resolve(String(parsed.DATA_DIR));
  const blobStore = invalid.has('BLOB_STORE_URL')
    ? null
    : parseBlobStore(parsed, env, dataDir, problems);
  if (parsed.UPSTREAM_URL !== undefined && parsed.UPSTREAM_API_KEYS === undefined) {
    problems.push('UPSTREAM_API_KEYS: required with UPSTREAM_URL (one upstream key at least)');
  }
  if (parsed.UPSTREAM_URL === undefined && parsed.UPSTREAM_API_KEYS !== undefined) {
    problems.push('UPSTREAM_API_KEYS: set, but UPSTREAM_URL names no upstream to use them for');
  }
  const mirrorShards = parsed.MIRROR_SHARDS.split(',');
  for (const shard of invalid.has('MIRROR_SHARDS') ? [] : mirrorShards) {
    if (!isPlatform(shard) && !isRegion(shard)) {
      problems.push(`MIRROR_SHARDS: "${shard}" is not a shard`);
    }
  }
  if (problems.length > 0 || blobStore === null) throw new ConfigError(problems);

  const publicBaseUrl = (parsed.PUBLIC_BASE_URL ?? `http://localhost:${parsed.PORT}`).replace(
    /\/+$/,
    '',
  );
  return Object.freeze({
    port: parsed.PORT,
    host: parsed.HOST,
    dataDir,
    databaseUrl: parsed.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'gamedata.sqlite')}`,
    databaseStartupTimeoutMs: parsed.DATABASE_STARTUP_TIMEOUT_SECONDS * 1000,
    databaseConnectTimeoutMs: parsed.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000,
    databaseStatementTimeoutMs: parsed.DATABASE_STATEMENT_TIMEOUT_SECONDS * 1000,
    publicBaseUrl,
    telemetryBaseUrl: (parsed.TELEMETRY_BASE_URL ?? `${publicBaseUrl}/telemetry`).replace(
      /\/+$/,
      '',
    ),
    blobStore: Object.freeze(blobStore),
    demoData: parsed.DEMO_DATA,
    demoApiKey: parsed.DEMO_API_KEY ?? null,
    demoSeed: parsed.DEMO_SEED,
    retentionDays: parsed.RETENTION_DAYS,
    shardAliases: Object.freeze(aliases),
    redisUrl: parsed.REDIS_URL ?? null,
    defaultRatePerMinute: parsed.RATE_LIMIT_PER_MINUTE,
    ingestMaxBytes: parsed.INGEST_MAX_MB * 1024 * 1024,
    ingestWorkers: parsed.INGEST_WORKERS ?? null,
    ingestNice: parsed.INGEST_NICE,
    ingestRatePerMinute: parsed.INGEST_RATE_LIMIT_PER_MINUTE,
    matchCacheBytes: parsed.MATCH_CACHE_MB * 1024 * 1024,
    telemetryCacheBytes: parsed.TELEMETRY_CACHE_MB * 1024 * 1024,
    documentCacheBytes: parsed.DOCUMENT_CACHE_MB * 1024 * 1024,
    jobs: parsed.JOBS,
    jobNice: parsed.JOB_NICE,
    leaderboardIntervalMinutes: parsed.LEADERBOARD_INTERVAL_MINUTES,
    samplesIntervalHours: parsed.SAMPLES_INTERVAL_HOURS,
    sampleSize: parsed.SAMPLE_SIZE,
    retentionIntervalMinutes: parsed.RETENTION_INTERVAL_MINUTES,
    metrics: parsed.METRICS,
    metricsToken: parsed.METRICS_TOKEN ?? null,
    logLevel: parsed.LOG_LEVEL,
    logFlushMs: parsed.LOG_FLUSH_MS,
    accessLog: parsed.ACCESS_LOG === 'on',
    shutdownGraceMs: parsed.SHUTDOWN_GRACE_SECONDS * 1000,
    upstream: upstreamConfig(parsed),
    mirrorIntervalMinutes: parsed.MIRROR_INTERVAL_MINUTES,
    mirrorShards: Object.freeze([...new Set(mirrorShards)]),
  });
}

function upstreamConfig(parsed: Static<typeof Env>): UpstreamConfig | null {
  if (parsed.UPSTREAM_URL === undefined || parsed.UPSTREAM_API_KEYS === undefined) return null;
  return Object.freeze({
    url: parsed.UPSTREAM_URL.replace(/\/+$/, ''),
    keys: Object.freeze(parsed.UPSTREAM_API_KEYS.split(',')),
    timeoutMs: parsed.UPSTREAM_TIMEOUT_MS,
    ttlMs: Object.freeze({
      players: parsed.UPSTREAM_PLAYER_TTL_SECONDS * 1000,
      stats: parsed.UPSTREAM_STATS_TTL_SECONDS * 1000,
      lists: parsed.UPSTREAM_LIST_TTL_SECONDS * 1000,
    }),
  });
}

function parseShardAliases(spec: string, problems: string[]): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const part of spec.split(',').filter(Boolean)) {
    if (part === 'none') continue;
    if (part === 'vendor') {
      Object.assign(aliases, VENDOR_SHARD_ALIASES);
      continue;
    }
    const [alias, target] = part.split('=') as [string, string];
    if (!isPlatform(target) && !isRegion(target)) {
      problems.push(`SHARD_ALIASES: "${alias}" points at "${target}", which is not a shard`);
    } else if (isPlatform(alias) || isRegion(alias)) {
      problems.push(`SHARD_ALIASES: "${alias}" is already a shard and cannot be an alias`);
    } else {
      aliases[alias] = target;
    }
  }
  return aliases;
}

/** S3 bucket names as AWS S3 and the common compatible stores accept them. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** Key prefixes of URL-safe segments only, so that a prefix reads the same in a bucket URL. */
const KEY_PREFIX = /^[A-Za-z0-9_.~-]+(\/[A-Za-z0-9_.~-]+)*$/;

function parseBlobStore(
  parsed: Static<typeof Env>,
  env: Record<string, string | undefined>,
  dataDir: string,
  problems: string[],
): BlobStoreLocation {
  const url = parsed.BLOB_STORE_URL;
  if (url === undefined) {
    // S3 settings without a bucket are a mistake an operator would not notice: nothing goes there.
    for (const name of ['S3_ENDPOINT', 'S3_FORCE_PATH_STYLE'] as const) {
      if (env[name] !== undefined && env[name] !== '') {
        problems.push(`${name}: set, but BLOB_STORE_URL names no s3:// bucket to use it for`);
      }
    }
    return { kind: 'directory', root: path.join(dataDir, 'blobs') };
  }
  const [bucket = '', ...rest] = url.slice('s3://'.length).split('/');
  const prefix = rest.join('/').replace(/\/+$/, '');
  if (!BUCKET_NAME.test(bucket)) {
    problems.push(
      `BLOB_STORE_URL: "${bucket}" is not a bucket name (3-63 lower-case letters, digits, dots and hyphens)`,
    );
  }
  if (prefix !== '' && (!KEY_PREFIX.test(prefix) || /(^|\/)\.{1,2}(\/|$)/.test(prefix))) {
    problems.push(
      `BLOB_STORE_URL: the key prefix "${prefix}" may hold only letters, digits and _.~- between single slashes`,
    );
  }
  return {
    kind: 's3',
    bucket,
    prefix,
    endpoint: parsed.S3_ENDPOINT?.replace(/\/+$/, '') ?? null,
    forcePathStyle: parsed.S3_FORCE_PATH_STYLE,
    timeoutMs: parsed.S3_TIMEOUT_MS,
  };
}

/**
 * Prepare workers of `serve` (posted matches) or `gamedata ingest` (a directory): INGEST_WORKERS
 * when set, else one fewer than the cores this process may use, which keeps every core busy
 * while the main thread writes. On one core `gamedata ingest` then prepares on its main thread
 * (a worker there only adds its start, its hand-overs and its turns with the writer: 48 demo
 * matches took 3.0 CPU s with one, 2.5 without, 0.17 s of it the worker's start), while `serve`
 * keeps one, at INGEST_NICE, so that serving comes first.
 */
export function ingestWorkersOf(
  config: Pick<Config, 'ingestWorkers'>,
  command: 'serve' | 'ingest',
  cores = os.availableParallelism(),
): number {
  if (config.ingestWorkers !== null) return config.ingestWorkers;
  const others = cores - 1;
  return command === 'serve' ? Math.max(1, others) : others;
}

/** Milliseconds of match data served, or Infinity when retention is off. */
export function retentionWindowMs(config: Pick<Config, 'retentionDays'>): number {
  return config.retentionDays === 0 ? Infinity : config.retentionDays * 86_400_000;
}
