/**
 * The exact bytes of the telemetry events a match carries inline, found in the JSON text the
 * match was parsed from, so that ingest stores them as they arrived instead of serializing the
 * parsed events again (serializing and encoding a 2 MB array costs more than parsing it).
 */

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
  let depth = 0;
  let expectKey = false;
  let isTelemetry = false;
  let found: Buffer | null = null;
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
        isTelemetry = false;
      }
      i = end;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (depth === 0) {
        depth = 1;
        expectKey = byte === OPEN_OBJECT;
        continue;
      }
      // A member's value: skipped whole, kept when it is the telemetry array.
      const end = valueEnd(text, i);
      if (isTelemetry && byte === OPEN_ARRAY) found = text.subarray(i, end + 1);
      isTelemetry = false;
      i = end;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
    } else if (depth === 1 && byte === COMMA) {
      expectKey = true;
    } else if (depth === 1 && byte !== COLON && byte > 0x20) {
      // A scalar value (number, literal) ends the key it belongs to.
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
