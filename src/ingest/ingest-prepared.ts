/**
 * Ingest of a match given as JSON bytes, prepared by a worker pool (prepare-pool.ts) or in
 * process, then stored by storeMatch exactly as ingestMatch stores it: same rows, documents and
 * blobs, same errors.
 */
import { gunzipSync } from 'node:zlib';
import type { IngestDeps, IngestResult } from './ingest-deps.ts';
import { storeMatch } from './ingest-match.ts';
import { assertMatchInputSchema } from './match-input-check.ts';
import { prepareMatch, toError, type PreparedFile, type PrepareOutcome } from './prepare-match.ts';
import type { PreparePool } from './prepare-pool.ts';
import type { TelemetryFile } from './telemetry-file.ts';

/**
 * Ingests the match in the ingest format that `source` holds (its telemetry inline, or in
 * `telemetry`, a file's bytes): prepared by `pool` when there is one, else in this thread.
 * Resolves null when `source` is not such a match (an array, a recorded document, a clan, not
 * JSON), for the caller to ingest as content; throws what ingestMatch throws.
 */
export async function ingestMatchBytes(
  deps: IngestDeps,
  pool: PreparePool | null,
  source: Buffer,
  telemetry?: Buffer,
): Promise<IngestResult | null> {
  const task = { source, ...(telemetry ? { telemetry } : {}), now: deps.clock.now() };
  let outcome = pool ? await pool.prepare(task) : null;
  // Not prepared by a worker (not a match, or one its schema check refused): here, which names
  // the field a refused match breaks.
  if (outcome === null || outcome.kind === 'other') {
    outcome = await prepareMatch(task, deps.config, assertMatchInputSchema);
  }
  return outcome.kind === 'other' ? null : storePrepared(deps, outcome);
}

/** Stores a prepared match, or throws the error preparing it found. */
export async function storePrepared(
  deps: IngestDeps,
  outcome: Exclude<PrepareOutcome, { kind: 'other' }>,
): Promise<IngestResult> {
  if (outcome.kind === 'error') throw toError(outcome.error);
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
