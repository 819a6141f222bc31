/**
 * One finished match in any format `gamedata ingest` and `POST /ingest/matches` take: the ingest
 * format (telemetry inline or as a file) or a recorded JSON:API match document (telemetry as a
 * file). Both end in ingestMatch.
 */
import { IngestError } from './ingest-error.ts';
import type { IngestDeps, IngestResult } from './ingest-deps.ts';
import { ingestMatch } from './ingest-match.ts';
import { ingestRecordedMatch, isRecordedMatchDocument } from './recorded-match.ts';

export interface IngestContentOptions {
  /** The JSON text `content` was parsed from; a recorded document is kept as these bytes. */
  raw?: Buffer;
  /** A telemetry file (gzip or JSON bytes) for the match. */
  telemetry?: Buffer;
  /** Region for recorded documents that name none. */
  region?: string;
}

/** Ingests a parsed match in either format (a recorded document is told by `data.type`). */
export async function ingestContent(
  deps: IngestDeps,
  content: unknown,
  options: IngestContentOptions = {},
): Promise<IngestResult> {
  if (isRecordedMatchDocument(content)) return ingestRecordedMatch(deps, content, options);
  return ingestMatch(deps, content, {
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    ...(options.raw ? { source: options.raw } : {}),
  });
}

/** Parses JSON text given as bytes; IngestError (the input as a whole) when it is not JSON. */
export function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new IngestError('', `not valid JSON (${(error as Error).message})`);
  }
}

/** The match id a parsed input names, in either format, if it names one. */
export function matchIdOf(content: unknown): string | undefined {
  const holder = isRecordedMatchDocument(content) ? content.data : content;
  const id =
    typeof holder === 'object' && holder !== null ? (holder as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}
