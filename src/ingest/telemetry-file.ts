/**
 * A match's telemetry file as ingest stores it. A recorded file is kept byte for byte: gzip
 * bytes exactly as given, or the given plain bytes gzipped once — parsing only validates it,
 * and nothing parsed is ever serialized back into the file (re-serializing changes how numbers
 * are spelled: `1.0`, `350.40002000`, `1e-7`). Events given inline in the ingest format are
 * stored as their text in the input when ingest has it, and serialized only when it has not.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { IngestError, IngestTooLargeError } from './ingest-error.ts';
import { gzipHere } from './thread-gzip.ts';

const gunzip = promisify(zlib.gunzip);

/** Output chunk of a telemetry gzip: a quarter of the input, within these bounds (bytes). */
const MIN_CHUNK = 64 * 1024;
const MAX_CHUNK = 4 * 1024 * 1024;

/**
 * zlib.gzip of a telemetry file, the same bytes, in one output chunk for most files: the default
 * 16 KB chunks each come back to this thread for the next one (a 2 MB file, whose gzip takes
 * about 200 KB, cost 2–3 ms of this thread's CPU that way; under 1 ms in one chunk). JSON
 * telemetry shrinks about tenfold, so a quarter of the input holds it; a result that is a view
 * of a larger chunk is copied out, so the file keeps no unused memory (and can be moved to
 * another thread whole).
 */
export async function gzip(plain: Buffer): Promise<Buffer> {
  const chunkSize = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, Math.ceil(plain.length / 4)));
  const packed = await gzipHere(plain, { chunkSize });
  if (packed.byteLength === packed.buffer.byteLength) return packed;
  // Not Buffer.from, which puts small copies in the slab small Buffers share.
  const owned = Buffer.allocUnsafeSlow(packed.byteLength);
  packed.copy(owned);
  return owned;
}

export interface TelemetryFile {
  /** What the blob store gets: the gzip bytes as given, or the given bytes gzipped once. */
  gzip: Buffer;
  /** The file's JSON text (gunzipped when it came as gzip): what "the same file" compares. */
  plain: Buffer;
  /**
   * The parsed events, for ingest's own use (the mastery tally; the region and map of recorded
   * matches). Of events given inline in a match's bytes, only those of TALLIED_EVENT_TYPES
   * (prepare-match.ts): the rest were checked but never parsed.
   */
  events: unknown[];
}

/** True when the bytes start with the gzip magic number. */
export function isGzip(bytes: Buffer): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * Reads a telemetry file as given (gzip is recognised by its magic bytes). Throws IngestError
 * (field `telemetry`) for anything but a JSON array of events with string `_T` and `_D`, and
 * IngestTooLargeError when the JSON text would exceed `maxBytes` (a gzip bomb stops there).
 */
export async function readTelemetryFile(bytes: Buffer, maxBytes: number): Promise<TelemetryFile> {
  let plain = bytes;
  if (isGzip(bytes)) {
    try {
      plain = await gunzip(bytes, { maxOutputLength: maxBytes });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new IngestTooLargeError(
          `the telemetry file is larger than ${maxBytes} bytes unzipped`,
        );
      }
      throw new IngestError('telemetry', `not a readable gzip file (${(error as Error).message})`);
    }
  } else if (bytes.length > maxBytes) {
    throw new IngestTooLargeError(`the telemetry file is larger than ${limit(maxBytes)}`);
  }
  let events: unknown;
  try {
    events = JSON.parse(plain.toString('utf8'));
  } catch (error) {
    throw new IngestError('telemetry', `not a readable JSON file (${(error as Error).message})`);
  }
  checkEvents(events);
  return { gzip: isGzip(bytes) ? bytes : await gzip(plain), plain, events };
}

/** The file of events given inline in the ingest format: their JSON, gzipped. */
export async function telemetryFileOfEvents(events: unknown[]): Promise<TelemetryFile> {
  const plain = eventsJson(events);
  return { gzip: await gzip(plain), plain, events };
}

/**
 * `Buffer.from(JSON.stringify(events))`, byte for byte, at about 60% of its cost: V8 builds the
 * text of one large stringify in pieces and joins them when the string is first read (about as
 * long as the stringify itself for a 2 MB file); the events' texts, each small and flat, are
 * joined by joinJsonTexts instead.
 */
export function eventsJson(events: readonly unknown[]): Buffer {
  const texts: string[] = new Array(events.length);
  let bytes = 0;
  for (let i = 0; i < events.length; i++) {
    // An element JSON has no text for (undefined, a function) is `null` in an array.
    const text = (JSON.stringify(events[i]) as string | undefined) ?? 'null';
    texts[i] = text;
    bytes += Buffer.byteLength(text);
  }
  return joinJsonTexts(texts, bytes);
}

/**
 * The JSON array whose elements are `texts` (each the JSON text of one value), as UTF-8 bytes,
 * written one after the other into one buffer of its exact size. `bytes` is the UTF-8 length of
 * the texts together, which callers count as they make them. Throws when it is wrong rather than
 * return a file cut short or with bytes of whatever the memory held.
 */
export function joinJsonTexts(texts: readonly string[], bytes: number): Buffer {
  const json = Buffer.allocUnsafe(bytes + 2 + Math.max(0, texts.length - 1));
  let at = 0;
  json[at++] = OPEN_ARRAY;
  for (let i = 0; i < texts.length; i++) {
    if (i > 0) json[at++] = COMMA;
    at += json.write(texts[i]!, at);
  }
  if (at !== json.length - 1) {
    throw new Error(`joinJsonTexts: the texts are not ${bytes} bytes of UTF-8`);
  }
  json[at] = CLOSE_ARRAY;
  return json;
}

const OPEN_ARRAY = 0x5b;
const COMMA = 0x2c;
const CLOSE_ARRAY = 0x5d;

/** The file of events given inline, from their JSON text as it arrived (parsed as `events`). */
export async function telemetryFileOfText(text: Buffer, events: unknown[]): Promise<TelemetryFile> {
  return { gzip: await gzip(text), plain: text, events };
}

/** True when a stored gzip file holds exactly the JSON text of `file`. */
export async function isSameTelemetry(storedGzip: Buffer, file: TelemetryFile): Promise<boolean> {
  return storedGzip.equals(file.gzip) || holdsText(storedGzip, file.plain);
}

/** True when a stored gzip file holds exactly the JSON text `plain`. */
export async function holdsText(storedGzip: Buffer, plain: Buffer): Promise<boolean> {
  try {
    return (await gunzip(storedGzip)).equals(plain);
  } catch {
    return false;
  }
}

/** The limit as the operator configured it. */
const limit = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB (INGEST_MAX_MB)`;

function checkEvents(events: unknown): asserts events is unknown[] {
  if (!Array.isArray(events)) throw new IngestError('telemetry', 'expected a JSON array of events');
  events.forEach((event, index) => {
    const record =
      typeof event === 'object' && event !== null ? (event as Record<string, unknown>) : null;
    for (const member of ['_T', '_D']) {
      if (typeof record?.[member] !== 'string') {
        throw new IngestError(
          `telemetry/${index}/${member}`,
          'every telemetry event has a string _T (its type) and _D (its time)',
        );
      }
    }
  });
}
