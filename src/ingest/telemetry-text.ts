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
  let valueStart = -1;
  let found: Buffer | null = null;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i]!;
    if (byte === QUOTE) {
      const end = stringEnd(text, i);
      if (depth === 1 && expectKey) {
        if (hasBackslash(text, i, end)) return null;
        isTelemetry = end - i + 1 === KEY.length && text.subarray(i, end + 1).equals(KEY);
        expectKey = false;
      }
      i = end;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth++;
      if (depth === 1) expectKey = byte === OPEN_OBJECT;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
      if (depth === 1 && valueStart !== -1) {
        found = text.subarray(valueStart, i + 1);
        valueStart = -1;
      }
    } else if (depth === 1) {
      if (byte === COMMA) expectKey = true;
      else if (byte === COLON && isTelemetry) {
        isTelemetry = false;
        valueStart = firstNonSpace(text, i + 1);
        // Only an array is telemetry; anything else is left to validation to refuse.
        if (text[valueStart] !== OPEN_ARRAY) valueStart = -1;
      }
    }
  }
  return found;
}

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

function firstNonSpace(text: Buffer, from: number): number {
  let i = from;
  while (text[i] === 0x20 || text[i] === 0x0a || text[i] === 0x0d || text[i] === 0x09) i++;
  return i;
}
