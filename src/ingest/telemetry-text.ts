/**
 * The exact bytes of the telemetry events a match carries inline, found in the JSON text the
 * match comes as, so that ingest stores them as they arrived instead of serializing the parsed
 * events again (serializing and encoding a 2 MB array costs more than parsing it) — and, from
 * bytes not parsed yet, without parsing the events ingest does not read (splitTelemetry).
 */
import { scanTelemetryEvents, type EventTypes, type ScannedEvents } from './telemetry-scan.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const KEY = Buffer.from('"telemetry"');

/**
 * The bytes of the value of the top-level `telemetry` member of a JSON object text (a view of
 * `text`, not a copy), or null when there is none or it cannot be told for certain (a top-level
 * key written with escapes). `text` must be valid JSON — it is the text the input was just parsed
 * from; as JSON.parse does, the last of repeated members wins.
 */
export function inlineTelemetryText(text: Buffer): Buffer | null {
  const found = lastTelemetryArray(text, (start) => valueEnd(text, start) + 1);
  return found === null ? null : text.subarray(found.start, found.end);
}

/** A match's inline telemetry read from its JSON text without parsing the events (splitTelemetry). */
export interface SplitTelemetry {
  /** The telemetry array's bytes (a view of the text). */
  events: Buffer;
  /** The rest of the input: its text with `[]` where the telemetry array was. */
  rest: string;
  /** The array as read: every event checked, those of the kept types noted. */
  scanned: ScannedEvents;
}

/**
 * The top-level `telemetry` array of a JSON object text, read and checked by
 * scanTelemetryEvents, and the rest of the text, for the caller to parse apart: null when there
 * is no such array, when it cannot be told for certain, or when the array breaks a rule the
 * scan checks — the caller then parses the whole text, as it would without this. Unlike
 * inlineTelemetryText, `text` need not have been parsed: whatever the rest holds, JSON.parse of
 * `rest` says whether it is valid, and where it is, the telemetry member it has as `[]` is the
 * one read here (the text before it is the same, and so read the same way).
 */
export function splitTelemetry(text: Buffer, keep: EventTypes): SplitTelemetry | null {
  let scanned = null as ScannedEvents | null;
  const found = lastTelemetryArray(text, (start) => {
    scanned = scanTelemetryEvents(text, start, keep);
    return scanned === null ? -1 : scanned.end;
  });
  if (found === null || scanned === null) return null;
  // The last array read is the last telemetry member's: lastTelemetryArray reads them in order.
  const rest =
    text.toString('utf8', 0, found.start) + '[]' + text.toString('utf8', found.end, text.length);
  return { events: text.subarray(found.start, found.end), rest, scanned };
}

/**
 * Where the value of the last top-level `telemetry` member is, when it is an array: `readArray`
 * reads each such array from its `[` and answers the index just past it (-1: give up). Other
 * members' values are skipped by valueEnd.
 */
function lastTelemetryArray(
  text: Buffer,
  readArray: (start: number) => number,
): { start: number; end: number } | null {
  let depth = 0;
  let expectKey = false;
  let isTelemetry = false;
  let found: { start: number; end: number } | null = null;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i]!;
    if (byte === QUOTE) {
      const end = stringEnd(text, i);
      if (depth === 1 && expectKey) {
        if (hasBackslash(text, i, end)) return null;
        isTelemetry =
          end + 1 - i === KEY.length && text.compare(KEY, 0, KEY.length, i, end + 1) === 0;
        expectKey = false;
      } else if (depth === 1) {
        // A string value: of a telemetry member, it ends an earlier one's claim.
        if (isTelemetry) found = null;
        isTelemetry = false;
      }
      i = end;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (depth === 0) {
        depth = 1;
        expectKey = byte === OPEN_OBJECT;
        continue;
      }
      // A member's value: skipped whole, read when it is the telemetry array.
      if (isTelemetry && byte === OPEN_ARRAY) {
        const end = readArray(i);
        if (end < 0) return null;
        found = { start: i, end };
        i = end - 1;
      } else {
        // A telemetry member that is not an array ends an earlier one's claim.
        if (isTelemetry) found = null;
        i = valueEnd(text, i);
      }
      isTelemetry = false;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
    } else if (depth === 1 && byte === COMMA) {
      expectKey = true;
    } else if (depth === 1 && byte !== COLON && byte > 0x20) {
      // A scalar value (number, literal, or a string: see above) ends the key it belongs to.
      if (isTelemetry) found = null;
      isTelemetry = false;
    }
  }
  return found;
}

/**
 * Index of the bracket closing the object or array that opens at `start`: the tight loop the
 * whole telemetry array goes through, strings skipped byte by byte (a native search per string,
 * Buffer#indexOf, costs more in the call than in the search for the short strings of events).
 * Outside strings, one mask tells the four brackets from nearly every other byte (see BRACKETS),
 * which is what most bytes between strings are tested against.
 */
function valueEnd(text: Buffer, start: number): number {
  let depth = 0;
  const length = text.length;
  for (let i = start; i < length; i++) {
    const byte = text[i]!;
    if (byte === QUOTE) {
      for (i++; i < length; i++) {
        const inner = text[i]!;
        if (inner === QUOTE) break;
        if (inner === BACKSLASH) i++;
      }
    } else if ((byte & BRACKETS_MASK) === BRACKETS) {
      const folded = byte | CASE_BIT;
      if (folded === OPEN_OBJECT) depth++;
      else if (folded === CLOSE_OBJECT && --depth === 0) return i;
    }
  }
  return length;
}

/**
 * `[` 0x5b, `]` 0x5d, `{` 0x7b and `}` 0x7d are the bytes whose bits under BRACKETS_MASK are
 * BRACKETS, with only `Y`, `_`, `y` and DEL besides; setting CASE_BIT then makes `[` a `{` and `]`
 * a `}`, and none of those four either. About 15% faster over event text than testing the four.
 */
const BRACKETS_MASK = 0xd9;
const BRACKETS = 0x59;
const CASE_BIT = 0x20;

/** Index of the quote closing the string whose opening quote is at `start`. */
function stringEnd(text: Buffer, start: number): number {
  let end = text.indexOf(QUOTE, start + 1);
  while (end !== -1 && isEscaped(text, end)) end = text.indexOf(QUOTE, end + 1);
  return end === -1 ? text.length : end;
}

/** True when an odd number of backslashes precedes the byte at `at`. */
function isEscaped(text: Buffer, at: number): boolean {
  let backslashes = 0;
  while (text[at - 1 - backslashes] === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}

function hasBackslash(text: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text[i] === BACKSLASH) return true;
  return false;
}
