/**
 * Preparing a match from its bytes, the part of ingest that needs no store: parse (once),
 * validate, find or read its telemetry file and gzip it, render its documents and tally its
 * mastery. Runs in a worker, thread or process (prepare-tasks.ts), or in process; the outcome is
 * plain data that crosses threads and processes, errors included.
 */
import type { Config } from '../config.ts';
import { deriveMatch, matchTelemetryFile, type DerivedMatch } from './derive-match.ts';
import {
  IngestError,
  IngestTooLargeError,
  MatchNotStoredError,
  TelemetryConflictError,
} from './ingest-error.ts';
import type { IngestResult } from './ingest-deps.ts';
import { BlobStoreUnavailableError } from '../blobs/blob-store.ts';
import { StoreUnavailableError, isStoreUnavailable } from '../store/store-errors.ts';
import { validateMatchInput, type SchemaAssertion, type ValidMatch } from './validate-match.ts';
import { TALLIED_EVENT_TYPES } from './mastery-telemetry.ts';
import { eventTypes, parseKeptEvents } from './telemetry-scan.ts';
import { splitTelemetry } from './telemetry-text.ts';

/** The settings preparing a match reads. */
export type PrepareConfig = Pick<
  Config,
  'publicBaseUrl' | 'telemetryBaseUrl' | 'retentionDays' | 'shardAliases' | 'ingestMaxBytes'
>;

/** One match to prepare: its JSON text, its telemetry file if given apart, the clock's now. */
export interface PrepareTask {
  source: Uint8Array;
  telemetry?: Uint8Array;
  /** Epoch ms the match is validated against (the ingest clock's now when it was read). */
  now: number;
}

/**
 * The telemetry file as stored (gzip) and its JSON text; its events stay where they were parsed.
 * A worker leaves the text out (prepare-worker.ts): only a match stored already needs it, and
 * then gets it back by gunzip (ingest-prepared.ts).
 */
export interface PreparedFile {
  gzip: Buffer;
  plain?: Buffer;
}

/**
 * `prepared`: valid, ready to store (its input without the telemetry events); `stored`: stored
 * already, by a worker that writes what it prepares (prepare-worker.ts); `other`: not a match in
 * the ingest format (an array, a recorded document, a clan, unreadable JSON), for the caller to
 * ingest as it would without a pool — or, with `recheck`, a match a worker's schema check
 * refused, to be prepared again where the field it breaks can be named; a worker sends the
 * task's `source` back with it; `error`: refused or failed, nothing stored.
 */
export type PrepareOutcome =
  | { kind: 'prepared'; match: ValidMatch; file: PreparedFile | null; derived: DerivedMatch }
  | { kind: 'stored'; result: IngestResult }
  | { kind: 'other'; recheck?: true; source?: Uint8Array }
  | { kind: 'error'; error: PrepareError; matchId?: string };

/** An error as it crosses threads; `toError` makes it the error the in-process path throws. */
export interface PrepareError {
  name: string;
  message: string;
  field?: string;
  /** The match of a TelemetryConflictError or MatchNotStoredError. */
  matchId?: string;
  /** The operation of a BlobStoreUnavailableError. */
  operation?: BlobStoreUnavailableError['operation'];
}

/**
 * Thrown by a schema assertion that can only tell that an input breaks the schema, not where
 * (a worker's, compiled without TypeBox): the input is then `other`, and the main thread ingests
 * it as it would without a pool, refusing it with the field named.
 */
export class SchemaRecheck extends Error {}

/**
 * Settles a valid match before its telemetry is gzipped and its documents rendered (a match
 * stored already needs neither): `text` is the JSON text of the telemetry file it comes with,
 * undefined when it comes without; `now`, the task's. Resolves the outcome, or null to prepare
 * the match whole.
 */
export type SettleEarly = (
  match: ValidMatch,
  text: Buffer | undefined,
  now: number,
) => Promise<PrepareOutcome | null>;

/**
 * Prepares one match; never throws (errors are outcomes). `settleEarly` is asked first when the
 * telemetry's text is at hand as it arrived (inline, found by splitTelemetry) or there is none.
 */
export async function prepareMatch(
  task: PrepareTask,
  config: PrepareConfig,
  assertSchema: SchemaAssertion,
  settleEarly?: SettleEarly,
): Promise<PrepareOutcome> {
  const source = Buffer.from(task.source.buffer, task.source.byteOffset, task.source.byteLength);
  let content: unknown;
  let eventsText: Buffer | undefined;
  try {
    ({ content, eventsText } = parseMatchText(source));
  } catch {
    return { kind: 'other' };
  }
  if (!isIngestFormat(content)) return { kind: 'other' };
  const id = (content as { id?: unknown }).id;
  try {
    const match = validateMatchInput(content, task.now, config, assertSchema);
    const inline = match.input.telemetry !== undefined;
    if (settleEarly && task.telemetry === undefined && (!inline || eventsText !== undefined)) {
      const settled = await settleEarly(match, eventsText, task.now);
      if (settled !== null) return settled;
    }
    const telemetry = task.telemetry && bufferOf(task.telemetry);
    const file = await matchTelemetryFile(
      match.input.telemetry,
      { source, ...(telemetry ? { telemetry } : {}), ...(eventsText ? { eventsText } : {}) },
      config,
    );
    const derived = await deriveMatch(match, file, null, config);
    delete match.input.telemetry;
    return {
      kind: 'prepared',
      match,
      file: file ? { gzip: file.gzip, plain: file.plain } : null,
      derived,
    };
  } catch (error) {
    if (error instanceof SchemaRecheck) return { kind: 'other', recheck: true };
    return {
      kind: 'error',
      error: errorOf(error),
      ...(typeof id === 'string' ? { matchId: id } : {}),
    };
  }
}

/**
 * The input parsed, its inline telemetry read by splitTelemetry when it has any: then only the
 * events the mastery tally reads are parsed, and `telemetry` holds just those (every event was
 * checked as the schema would, and is stored from `eventsText`, the array's bytes). Anything
 * splitTelemetry cannot take is parsed whole, as JSON.parse would; throws what JSON.parse throws.
 */
function parseMatchText(source: Buffer): { content: unknown; eventsText?: Buffer } {
  const split = splitTelemetry(source, TALLIED_EVENTS);
  if (split === null) return { content: JSON.parse(source.toString('utf8')) };
  const content: unknown = JSON.parse(split.rest);
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    return { content };
  }
  (content as { telemetry: unknown }).telemetry = parseKeptEvents(source, split.scanned);
  return { content, eventsText: split.events };
}

const TALLIED_EVENTS = eventTypes(TALLIED_EVENT_TYPES);

/**
 * True for an object that can only be a match in the ingest format: recorded documents (`data`)
 * and clan or player status inputs (`kind`) are members the ingest format does not have.
 * Decided without their modules, which the worker then need not load.
 */
function isIngestFormat(content: unknown): boolean {
  return (
    typeof content === 'object' &&
    content !== null &&
    !Array.isArray(content) &&
    !('data' in content) &&
    !('kind' in content)
  );
}

/**
 * The ArrayBuffers under these views that each view covers whole, which may move to another
 * thread (postMessage's transfer list) without taking bytes anything else refers to: never the
 * slab small Buffers share, nor a buffer of which a view shows only a part.
 */
export function ownedArrayBuffers(views: ReadonlyArray<Uint8Array | undefined>): ArrayBuffer[] {
  const owned = new Set<ArrayBuffer>();
  for (const view of views) {
    if (view === undefined || !(view.buffer instanceof ArrayBuffer)) continue;
    if (view.byteOffset === 0 && view.byteLength === view.buffer.byteLength) owned.add(view.buffer);
  }
  return [...owned];
}

/** A Buffer over the bytes of a Uint8Array (what a Buffer becomes when it crosses threads). */
export function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * An error as it crosses threads: what the HTTP layer tells apart — the refusals of ingest and
 * the store or blob store being unavailable (a 503, not a 500) — keeps its class.
 */
export function errorOf(error: unknown): PrepareError {
  if (error instanceof IngestError) {
    return { name: error.name, field: error.field, message: error.message };
  }
  if (error instanceof TelemetryConflictError || error instanceof MatchNotStoredError) {
    return { name: error.name, matchId: error.matchId, message: error.message };
  }
  if (error instanceof BlobStoreUnavailableError) {
    return { name: error.name, operation: error.operation, message: error.message };
  }
  if (isStoreUnavailable(error)) {
    return { name: 'StoreUnavailableError', message: (error as Error).message };
  }
  const { name, message } = error instanceof Error ? error : new Error(String(error));
  return { name, message };
}

/** The error the in-process path would have thrown, same class and message. */
export function toError(error: PrepareError): Error {
  let made: Error;
  if (error.name === 'IngestError') made = new IngestError(error.field ?? '', '');
  else if (error.name === 'IngestTooLargeError') made = new IngestTooLargeError('');
  else if (error.name === 'TelemetryConflictError') {
    made = new TelemetryConflictError(error.matchId ?? '');
  } else if (error.name === 'MatchNotStoredError') {
    made = new MatchNotStoredError(error.matchId ?? '');
  } else if (error.name === 'BlobStoreUnavailableError') {
    made = new BlobStoreUnavailableError(error.operation ?? 'put', '');
  } else if (error.name === 'StoreUnavailableError') made = new StoreUnavailableError('');
  else made = new Error('');
  made.message = error.message;
  return made;
}
