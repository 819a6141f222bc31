/**
 * Ingest of a match given as JSON bytes, prepared by a worker pool (prepare-pool.ts) or in
 * process, then stored by storeMatch exactly as ingestMatch stores it: same rows, documents and
 * blobs, same errors.
 */
import { gunzipSync } from 'node:zlib';
import type { IngestDeps, IngestResult } from './ingest-deps.ts';
import { settleWhenStored, storeMatch } from './ingest-match.ts';
import { assertMatchInputSchema } from './match-input-check.ts';
import {
  bufferOf,
  prepareMatch,
  toError,
  type PreparedFile,
  type PrepareOutcome,
  type PrepareTask,
} from './prepare-match.ts';
import type { PreparePool } from './prepare-pool.ts';
import type { TelemetryFile } from './telemetry-file.ts';

/**
 * Ingests the match in the ingest format that `source` holds (its telemetry inline, or in
 * `telemetry`, a file's bytes): prepared by `pool` when there is one, else in this thread.
 * Resolves null when `source` is not such a match (an array, a recorded document, a clan, not
 * JSON), for the caller to ingest as content; throws what ingestMatch throws. The bytes are
 * copied to the worker, so `source` stays the caller's.
 */
export async function ingestMatchBytes(
  deps: IngestDeps,
  pool: PreparePool | null,
  source: Buffer,
  telemetry?: Buffer,
): Promise<IngestResult | null> {
  const task = { source, ...(telemetry ? { telemetry } : {}), now: deps.clock.now() };
  const outcome = await prepare(deps, pool, task, false);
  return outcome.kind === 'other' ? null : storePrepared(deps, outcome);
}

/**
 * ingestMatchBytes for bytes the caller is done with, a request's body: they move to a worker
 * thread instead of being copied — tens of ms of the serving thread for a 20 MB match — leaving
 * `source` empty (a worker process gets them through a socket, and `source` stays whole). When
 * they are not a match, they come back: `{ other }`, for the caller to ingest as content. A pool
 * whose workers store what they prepare (a store target) commits the match from the worker;
 * `storedElsewhere` then runs before the result is returned — the
 * serving thread reads the change feed there, so that its caches know of the commit before
 * the client does.
 */
export async function ingestHandedOverBytes(
  deps: IngestDeps,
  pool: PreparePool,
  source: Buffer,
  storedElsewhere: () => Promise<void> = () => Promise.resolve(),
): Promise<IngestResult | { other: Buffer }> {
  const outcome = await prepare(deps, pool, { source, now: deps.clock.now() }, true);
  if (outcome.kind === 'other') return { other: outcome.source };
  if (outcome.kind === 'stored') {
    await storedElsewhere();
    return outcome.result;
  }
  return storePrepared(deps, outcome);
}

/**
 * attachTelemetry in a worker of `pool`, one that stores (PreparePool.stores), for bytes the
 * caller is done with (a request's body): the file's parse, checks and mastery tally then never
 * hold the serving thread. `storedElsewhere` runs before the result is returned, as for a match
 * (ingestHandedOverBytes); throws what attachTelemetry throws.
 */
export async function attachHandedOverTelemetry(
  deps: IngestDeps,
  pool: PreparePool,
  matchId: string,
  telemetry: Buffer,
  storedElsewhere: () => Promise<void>,
): Promise<IngestResult> {
  const outcome = await pool.attach(matchId, telemetry, deps.clock.now(), true);
  if (outcome.kind === 'error') throw toError(outcome.error);
  if (outcome.kind !== 'stored') throw new Error(`an ingest worker answered ${outcome.kind}`);
  await storedElsewhere();
  return outcome.result;
}

/**
 * Prepares a task in the pool (here without one), and here again when a worker's check cannot
 * name what it refuses. Not a match: with the bytes where they are now (back from a worker).
 */
async function prepare(
  deps: IngestDeps,
  pool: PreparePool | null,
  task: PrepareTask,
  handOver: boolean,
): Promise<Exclude<PrepareOutcome, { kind: 'other' }> | { kind: 'other'; source: Buffer }> {
  const outcome = pool
    ? await pool.prepare(task, handOver)
    : await prepareMatch(task, deps.config, assertMatchInputSchema, settleWhenStored(deps));
  if (outcome.kind !== 'other') return outcome;
  const source = bufferOf(outcome.source ?? task.source);
  if (outcome.recheck !== true) return { kind: 'other', source };
  const again = await prepareMatch({ ...task, source }, deps.config, assertMatchInputSchema);
  return again.kind === 'other' ? { kind: 'other', source } : again;
}

/** Stores a prepared match, or throws the error preparing it found. */
export async function storePrepared(
  deps: IngestDeps,
  outcome: Exclude<PrepareOutcome, { kind: 'other' }>,
): Promise<IngestResult> {
  if (outcome.kind === 'error') throw toError(outcome.error);
  if (outcome.kind === 'stored') return outcome.result;
  const file = outcome.file === null ? undefined : withLazyEvents(outcome.file);
  return storeMatch(deps, outcome.match, file, () => Promise.resolve(outcome.derived));
}

/**
 * The telemetry file with its events parsed from its text only if asked for — by attaching it
 * to a match stored without telemetry; a new match's mastery was tallied when it was prepared.
 * The text itself, which a worker does not send, is then the gzip's (the very bytes gzipped).
 */
function withLazyEvents({ gzip, plain }: PreparedFile): TelemetryFile {
  let text = plain;
  let events: unknown[] | undefined;
  const textOf = (): Buffer => (text ??= gunzipSync(gzip));
  return {
    gzip,
    get plain() {
      return textOf();
    },
    get events() {
      return (events ??= JSON.parse(textOf().toString('utf8')) as unknown[]);
    },
  };
}
