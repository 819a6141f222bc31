/**
 * What a validated match derives without the store: its telemetry file, its rendered documents
 * and its mastery rows. Pure of any database, so a worker thread can do it for the next matches
 * while the main thread writes the current one (prepare-pool.ts).
 */
import type { Config } from '../config.ts';
import { canonicalMatchDocumentVariant, documentEtag } from '../presenters/match-document.ts';
import { RECORDED_DOCUMENT } from '../store/match-documents.ts';
import type { MatchMasteryRows } from '../store/mastery-writes.ts';
import type { MatchDocumentsTable } from '../store/schema.ts';
import { IngestError } from './ingest-error.ts';
import { renderDocumentRow } from './load-match-document.ts';
import { masteryMatchOf } from './mastery-match.ts';
import { matchMasteryRows } from './mastery-rows.ts';
import { matchRecord } from './match-rows.ts';
import {
  readTelemetryFile,
  telemetryFileOfEvents,
  telemetryFileOfText,
  type TelemetryFile,
} from './telemetry-file.ts';
import { inlineTelemetryText } from './telemetry-text.ts';
import type { ValidMatch } from './validate-match.ts';
import { gzipHere } from './thread-gzip.ts';

/** What comes with a match besides its parsed input. */
export interface MatchTelemetryOptions {
  /**
   * The match's telemetry file as given (gzip or JSON bytes), or already read; stored byte for
   * byte. Not together with events inline in the input.
   */
  telemetry?: Buffer | TelemetryFile;
  /**
   * The JSON text the input was parsed from: events given inline are then stored as these
   * bytes, never serialized again.
   */
  source?: Buffer;
  /** The inline events' bytes in `source`, when they have been found already (splitTelemetry). */
  eventsText?: Buffer;
}

/** A match's rendered documents (canonical, and recorded when it came as one) and mastery rows. */
export interface DerivedMatch {
  documents: MatchDocumentsTable[];
  mastery: MatchMasteryRows;
}

/**
 * The telemetry file of a match: given inline as events (their bytes in the source text when
 * there is one), or as a file — not both.
 */
export async function matchTelemetryFile(
  inline: unknown[] | undefined,
  { telemetry: given, source, eventsText }: MatchTelemetryOptions,
  config: Pick<Config, 'ingestMaxBytes'>,
): Promise<TelemetryFile | undefined> {
  if (inline !== undefined && given !== undefined) {
    throw new IngestError('telemetry', 'given twice: inline events and a telemetry file');
  }
  if (inline !== undefined) {
    const text = eventsText ?? (source === undefined ? null : inlineTelemetryText(source));
    return text === null ? telemetryFileOfEvents(inline) : telemetryFileOfText(text, inline);
  }
  if (given === undefined || !Buffer.isBuffer(given)) return given;
  return readTelemetryFile(given, config.ingestMaxBytes);
}

/** Renders a match's documents and tallies its mastery (from its telemetry events, if any). */
export async function deriveMatch(
  match: ValidMatch,
  file: TelemetryFile | undefined,
  recorded: Buffer | null,
  config: Pick<Config, 'publicBaseUrl' | 'telemetryBaseUrl' | 'shardAliases'>,
): Promise<DerivedMatch> {
  const variant = canonicalMatchDocumentVariant(match.input.platformShard, config);
  const record = matchRecord(match, file !== undefined);
  const documents = [await renderDocumentRow(record, variant, recorded)];
  if (recorded) documents.push(await recordedRow(match.input.id, match.createdAt, recorded));
  return { documents, mastery: matchMasteryRows(masteryMatchOf(match), file?.events ?? null) };
}

/** The row keeping a recorded document as it was given. */
async function recordedRow(
  matchId: string,
  createdAt: number,
  recorded: Buffer,
): Promise<MatchDocumentsTable> {
  return {
    match_id: matchId,
    variant: RECORDED_DOCUMENT,
    etag: documentEtag(recorded),
    body_gzip: await gzipHere(recorded),
    created_at: createdAt,
  };
}
