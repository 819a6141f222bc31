/**
 * A telemetry array read as bytes, without parsing it: every byte checked against JSON's grammar
 * (what JSON.parse would refuse is refused here), every event checked against the ingest
 * schema's rule for an event (an object with a `_T` of `^Log[A-Za-z0-9]+$` and a `_D` of at
 * least 20 characters), and the byte ranges of the events of some types noted, so that only
 * those are parsed. Ingest's mastery tally reads about a third of a match's events, some 40% of
 * its telemetry's bytes; the rest are stored as they came and never become objects.
 *
 * Whatever this cannot decide for certain — a key or a `_T`/`_D` written with escapes, a `_D`
 * with characters beyond ASCII (its length in UTF-16 units is not its byte count), nesting
 * deeper than MAX_DEPTH — and whatever breaks a rule reads as null: the caller then parses the
 * whole text as before, which refuses it with the same error, or accepts it.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const SPACE = 0x20;
const TAB = 0x09;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const UNDERSCORE = 0x5f;
const UPPER_T = 0x54;
const UPPER_D = 0x44;

/** Containers deeper than this inside one event read as "cannot tell" (JSON.parse decides). */
const MAX_DEPTH = 64;
/** The schema's least length of `_D`. */
const MIN_DATE_LENGTH = 20;

const TRUE = bytesOf('true');
const FALSE = bytesOf('false');
const NULL = bytesOf('null');
const LOG = bytesOf('Log');

/** The event types whose events a read keeps, by their bytes. */
export interface EventTypes {
  /** Candidates by byte length. */
  readonly byLength: ReadonlyMap<number, readonly Uint8Array[]>;
}

export function eventTypes(types: Iterable<string>): EventTypes {
  const byLength = new Map<number, Uint8Array[]>();
  for (const type of types) {
    const bytes = bytesOf(type);
    const list = byLength.get(bytes.length) ?? [];
    list.push(bytes);
    byLength.set(bytes.length, list);
  }
  return { byLength };
}

/** A telemetry array as read: where it ends and which events were kept. */
export interface ScannedEvents {
  /** Index just past the array's closing bracket. */
  end: number;
  /** Events in the array. */
  count: number;
  /** Start and end (exclusive) of each kept event, in file order, two numbers an event. */
  kept: number[];
}

/**
 * Reads the telemetry array whose `[` is at `start` in `text`, or null (see above). Only the
 * array is read: what follows it is the caller's.
 */
export function scanTelemetryEvents(
  text: Uint8Array,
  start: number,
  keep: EventTypes,
): ScannedEvents | null {
  if (text[start] !== OPEN_ARRAY) return null;
  const kept: number[] = [];
  let count = 0;
  let i = skipSpace(text, start + 1);
  if (text[i] === CLOSE_ARRAY) return { end: i + 1, count, kept };
  for (;;) {
    if (text[i] !== OPEN_OBJECT) return null;
    const eventStart = i;
    let typeStart = -1;
    let typeEnd = -1;
    let dateLength = -1;
    i = skipSpace(text, i + 1);
    for (;;) {
      // A member of the event: its key, then its value.
      if (text[i] !== QUOTE) return null;
      const keyEnd = plainStringEnd(text, i);
      if (keyEnd < 0) return null;
      const member = keyEnd - i === 4 && text[i + 1] === UNDERSCORE ? text[i + 2] : 0;
      i = skipSpace(text, keyEnd);
      if (text[i] !== COLON) return null;
      i = skipSpace(text, i + 1);
      if (member === UPPER_T || member === UPPER_D) {
        // The last of repeated members counts, as in JSON.parse.
        if (text[i] !== QUOTE) return null;
        const close = plainStringEnd(text, i);
        if (close < 0) return null;
        if (member === UPPER_T) {
          typeStart = i + 1;
          typeEnd = close - 1;
        } else {
          dateLength = asciiLength(text, i + 1, close - 1);
          if (dateLength < 0) return null;
        }
        i = close;
      } else {
        i = valueEnd(text, i);
        if (i < 0) return null;
      }
      i = skipSpace(text, i);
      if (text[i] === COMMA) {
        i = skipSpace(text, i + 1);
        continue;
      }
      if (text[i] !== CLOSE_OBJECT) return null;
      i++;
      break;
    }
    if (!isEventType(text, typeStart, typeEnd) || dateLength < MIN_DATE_LENGTH) return null;
    count++;
    if (isKept(text, typeStart, typeEnd, keep)) kept.push(eventStart, i);
    i = skipSpace(text, i);
    if (text[i] === COMMA) {
      i = skipSpace(text, i + 1);
      continue;
    }
    if (text[i] !== CLOSE_ARRAY) return null;
    return { end: i + 1, count, kept };
  }
}

/**
 * The kept events, parsed. They are parsed in batches of up to BATCH_BYTES of text, each copied
 * into one buffer kept for this and copied out of it as a string: a string that large stays in
 * V8's young generation, whose pages are in use already, where the text of every kept event at
 * once (about 1 MB a default match) would get pages of its own, each faulted in anew.
 */
export function parseKeptEvents(text: Uint8Array, scanned: ScannedEvents): unknown[] {
  const { kept } = scanned;
  const source = Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  const events: unknown[] = [];
  let at = 0;
  const flush = (): void => {
    if (at === 0) return;
    batch[at] = CLOSE_ARRAY;
    for (const event of JSON.parse(batch.toString('utf8', 0, at + 1)) as unknown[]) {
      events.push(event);
    }
    at = 0;
  };
  for (let k = 0; k < kept.length; k += 2) {
    const start = kept[k]!;
    const end = kept[k + 1]!;
    // Room for a comma or the opening bracket before it, and the closing one after.
    if (at + 2 + end - start > batch.length) {
      flush();
      if (2 + end - start > batch.length) {
        events.push(JSON.parse(source.toString('utf8', start, end)));
        continue;
      }
    }
    batch[at] = at === 0 ? OPEN_ARRAY : COMMA;
    at += 1 + source.copy(batch, at + 1, start, end);
  }
  flush();
  return events;
}

/** Text of kept events parsed at once; under V8's largest object outside its large-object space. */
const BATCH_BYTES = 96 * 1024;
const batch = Buffer.allocUnsafeSlow(BATCH_BYTES);

/** valueEnd's stack of open containers, one for all (it holds nothing between calls). */
const containers = new Uint8Array(MAX_DEPTH);

/** Index just past the JSON value starting at `start`, or -1 when it is not one. */
function valueEnd(text: Uint8Array, start: number): number {
  // Open containers, innermost last: 1 for an object, 0 for an array.
  const objects = containers;
  let depth = 0;
  let i = start;
  value: for (;;) {
    const byte = text[i];
    if (byte === QUOTE) {
      i = stringEnd(text, i);
      if (i < 0) return -1;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      const isObject = byte === OPEN_OBJECT;
      i = skipSpace(text, i + 1);
      if (text[i] === (isObject ? CLOSE_OBJECT : CLOSE_ARRAY)) {
        i++;
      } else {
        if (depth === MAX_DEPTH) return -1;
        objects[depth++] = isObject ? 1 : 0;
        if (isObject) {
          i = memberValueStart(text, i);
          if (i < 0) return -1;
        }
        continue value;
      }
    } else if (byte === MINUS || (byte !== undefined && byte >= ZERO && byte <= NINE)) {
      i = numberEnd(text, i);
      if (i < 0) return -1;
    } else if (byte === 0x74) {
      if (!matches(text, i, TRUE)) return -1;
      i += TRUE.length;
    } else if (byte === 0x66) {
      if (!matches(text, i, FALSE)) return -1;
      i += FALSE.length;
    } else if (byte === 0x6e) {
      if (!matches(text, i, NULL)) return -1;
      i += NULL.length;
    } else {
      return -1;
    }
    // After a value: the next one of its container, or the container's end.
    for (;;) {
      if (depth === 0) return i;
      i = skipSpace(text, i);
      const isObject = objects[depth - 1] === 1;
      const next = text[i];
      if (next === COMMA) {
        i = skipSpace(text, i + 1);
        if (isObject) {
          i = memberValueStart(text, i);
          if (i < 0) return -1;
        }
        continue value;
      }
      if (next !== (isObject ? CLOSE_OBJECT : CLOSE_ARRAY)) return -1;
      depth--;
      i++;
    }
  }
}

/** From a member's key at `start` to the start of its value (past the colon), or -1. */
function memberValueStart(text: Uint8Array, start: number): number {
  if (text[start] !== QUOTE) return -1;
  let i = stringEnd(text, start);
  if (i < 0) return -1;
  i = skipSpace(text, i);
  if (text[i] !== COLON) return -1;
  return skipSpace(text, i + 1);
}

/**
 * Index just past the string whose quote is at `start`, or -1 when it is not a JSON string:
 * unescaped control characters and unknown escapes are refused; bytes beyond ASCII are taken as
 * they are (decoding makes any of them characters a string may hold). One table lookup a byte
 * tells the bytes that need a second look (PLAIN), which is what most of a telemetry file is.
 */
function stringEnd(text: Uint8Array, start: number): number {
  const length = text.length;
  let i = start + 1;
  for (;;) {
    while (i < length && PLAIN[text[i]!] === 1) i++;
    if (i >= length) return -1;
    const byte = text[i]!;
    if (byte === QUOTE) return i + 1;
    if (byte !== BACKSLASH) return -1;
    const escaped = text[i + 1];
    if (escaped === 0x75) {
      if (!isHex(text[i + 2]) || !isHex(text[i + 3]) || !isHex(text[i + 4])) return -1;
      if (!isHex(text[i + 5])) return -1;
      i += 6;
    } else if (escaped !== undefined && SIMPLE_ESCAPES[escaped]) {
      i += 2;
    } else {
      return -1;
    }
  }
}

/** 1 for the bytes a string holds as they are: all but control characters, `"` and `\\`. */
const PLAIN = (() => {
  const table = new Uint8Array(256).fill(1);
  for (let byte = 0; byte < SPACE; byte++) table[byte] = 0;
  table[QUOTE] = 0;
  table[BACKSLASH] = 0;
  return table;
})();

/** stringEnd for a string that must have no escapes (keys of an event, `_T`, `_D`); else -1. */
function plainStringEnd(text: Uint8Array, start: number): number {
  const length = text.length;
  for (let i = start + 1; i < length; i++) {
    const byte = text[i]!;
    if (byte === QUOTE) return i + 1;
    if (byte === BACKSLASH || byte < SPACE) return -1;
  }
  return -1;
}

/** Index just past the JSON number at `start`, or -1. What may follow it is the caller's. */
function numberEnd(text: Uint8Array, start: number): number {
  let i = start;
  if (text[i] === MINUS) i++;
  if (text[i] === ZERO) i++;
  else if (isDigit(text[i])) while (isDigit(text[++i]));
  else return -1;
  if (text[i] === DOT) {
    if (!isDigit(text[++i])) return -1;
    while (isDigit(text[++i]));
  }
  if (text[i] === LOWER_E || text[i] === UPPER_E) {
    i++;
    if (text[i] === PLUS || text[i] === MINUS) i++;
    if (!isDigit(text[i])) return -1;
    while (isDigit(text[++i]));
  }
  return i;
}

function skipSpace(text: Uint8Array, start: number): number {
  let i = start;
  for (;;) {
    const byte = text[i];
    if (byte !== SPACE && byte !== NEWLINE && byte !== RETURN && byte !== TAB) return i;
    i++;
  }
}
/** `_T` as the schema wants it: `Log` then one or more ASCII letters and digits. */
function isEventType(text: Uint8Array, start: number, end: number): boolean {
  if (start < 0 || end - start <= LOG.length || !matches(text, start, LOG)) return false;
  for (let i = start + LOG.length; i < end; i++) {
    const byte = text[i]!;
    const letter = byte | 0x20;
    if (!(isDigit(byte) || (letter >= 0x61 && letter <= 0x7a))) return false;
  }
  return true;
}

function isKept(text: Uint8Array, start: number, end: number, keep: EventTypes): boolean {
  const candidates = keep.byLength.get(end - start);
  if (candidates === undefined) return false;
  for (const type of candidates) if (matches(text, start, type)) return true;
  return false;
}

/** The length of an all-ASCII run of bytes, or -1 when a byte is beyond ASCII. */
function asciiLength(text: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; i++) if (text[i]! >= 0x80) return -1;
  return end - start;
}

function matches(text: Uint8Array, at: number, bytes: Uint8Array): boolean {
  for (let k = 0; k < bytes.length; k++) if (text[at + k] !== bytes[k]) return false;
  return true;
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= ZERO && byte <= NINE;
}

function isHex(byte: number | undefined): boolean {
  if (byte === undefined) return false;
  const letter = byte | 0x20;
  return (byte >= ZERO && byte <= NINE) || (letter >= 0x61 && letter <= 0x66);
}

/** The bytes after a backslash that make an escape of their own (`u` is read apart). */
const SIMPLE_ESCAPES: readonly boolean[] = (() => {
  const table: boolean[] = new Array(256).fill(false);
  for (const char of '"\\/bfnrt') table[char.charCodeAt(0)] = true;
  return table;
})();

function bytesOf(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'latin1'));
}
