/**
 * Where a recorded document's top-level `links.self` value lies in its bytes, so that it can be
 * served as recorded with only that link rewritten to this service. The bytes must be valid JSON
 * (ingest parsed them already); the scan works on UTF-8 bytes directly because every structural
 * character is ASCII and no byte of a multi-byte character is.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;

/**
 * The byte range [start, end) of the string value of the root object's `links.self`, quotes
 * included; null when the root is not an object or has no such string.
 */
export function selfLinkRange(bytes: Buffer): { start: number; end: number } | null {
  const root = skipSpace(bytes, 0);
  if (bytes[root] !== OPEN_OBJECT) return null;
  const links = memberValue(bytes, root, 'links');
  if (links === null || bytes[links] !== OPEN_OBJECT) return null;
  const self = memberValue(bytes, links, 'self');
  if (self === null || bytes[self] !== QUOTE) return null;
  return { start: self, end: stringEnd(bytes, self) };
}

/** Offset of the value of member `name` of the object opening at `open`; null when absent. */
function memberValue(bytes: Buffer, open: number, name: string): number | null {
  let at = skipSpace(bytes, open + 1);
  while (bytes[at] === QUOTE) {
    const keyEnd = stringEnd(bytes, at);
    const key: unknown = JSON.parse(bytes.toString('utf8', at, keyEnd));
    at = skipSpace(bytes, keyEnd);
    if (bytes[at] !== COLON) return null;
    const value = skipSpace(bytes, at + 1);
    if (key === name) return value;
    at = skipSpace(bytes, valueEnd(bytes, value));
    if (bytes[at] !== 0x2c) return null; // no comma: the object ends without the member
    at = skipSpace(bytes, at + 1);
  }
  return null;
}

/** Offset just past the string opening at `at` (its closing quote included). */
function stringEnd(bytes: Buffer, at: number): number {
  let i = at + 1;
  while (i < bytes.length && bytes[i] !== QUOTE) i += bytes[i] === BACKSLASH ? 2 : 1;
  return i + 1;
}

/** Offset just past the value starting at `at`: a string, an object or array, or a literal. */
function valueEnd(bytes: Buffer, at: number): number {
  if (bytes[at] === QUOTE) return stringEnd(bytes, at);
  if (bytes[at] !== OPEN_OBJECT && bytes[at] !== OPEN_ARRAY) {
    let i = at;
    while (i < bytes.length && !isDelimiter(bytes[i]!)) i++;
    return i;
  }
  let depth = 0;
  let i = at;
  while (i < bytes.length) {
    const byte = bytes[i]!;
    if (byte === QUOTE) {
      i = stringEnd(bytes, i);
      continue;
    }
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
    else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return i;
}

function isDelimiter(byte: number): boolean {
  return byte === 0x2c || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || isSpace(byte);
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(bytes: Buffer, at: number): number {
  let i = at;
  while (i < bytes.length && isSpace(bytes[i]!)) i++;
  return i;
}
