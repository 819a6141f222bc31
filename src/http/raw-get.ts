/**
 * Reading a plain GET straight from a connection's bytes, for the fast path's answers on the
 * connection (src/http/raw-connections.ts). It reads only a strict subset of HTTP/1.1 — the
 * requests its answers depend on, written the way clients write them — and gives up (null) on
 * anything else, which then goes to Node's own parser unchanged: that one answers what is odd,
 * wrong or hostile (400, 414, 431, 501 …) as it always did.
 *
 * Read: `GET <origin-form target> HTTP/1.1` and its header lines, each `name: value` with a token
 * for name and visible ASCII, spaces and tabs for value, all within the bytes at hand. Given up
 * on: any other method or version, a target not starting with `/` or holding anything but
 * visible ASCII, a request not complete in the bytes at hand, a bare LF, folded lines, bytes
 * beyond ASCII, more than MAX_HEADERS header lines or MAX_HEAD bytes, a body (`Content-Length`,
 * `Transfer-Encoding`), `Expect`, `Upgrade`, a `Connection` other than `keep-alive`, a
 * conditional request (`If-None-Match`), no `Host`, and a header the answer depends on given
 * twice (Node would join or drop the copies).
 */

/** A GET read from bytes: what the fast path's answer depends on. */
export interface RawGet {
  /** The request target, as Node's `request.url`. */
  url: string;
  accept: string | undefined;
  acceptEncoding: string | undefined;
  authorization: string | undefined;
  /** Offset of the first byte after the request (its blank line). */
  end: number;
}

/** The longest request head read here; longer ones are Node's (it answers 431 past its limit). */
export const MAX_HEAD = 8 * 1024;
/** The most header lines read here. */
export const MAX_HEADERS = 64;

const CR = 0x0d;
const LF = 0x0a;
const SP = 0x20;
const HTAB = 0x09;
const COLON = 0x3a;
const SLASH = 0x2f;

/** Bytes allowed in a header name (RFC 9110's tchar). */
const TOKEN = byteSet(
  "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
);
/** Bytes allowed in a header value here: visible ASCII, space and tab. */
const VALUE = byteRange(0x21, 0x7e, [SP, HTAB]);
/** Bytes allowed in a target here: visible ASCII. */
const TARGET = byteRange(0x21, 0x7e, []);

const GET_ = Buffer.from('GET ', 'latin1');
const _HTTP11 = Buffer.from(' HTTP/1.1\r\n', 'latin1');

/**
 * The GET whose first byte is at `at`, or null when the bytes from `at` on are not one read
 * here (see the module's comment). Nothing is copied but the values of the headers it returns.
 */
export function readGet(bytes: Buffer, at: number): RawGet | null {
  const limit = Math.min(bytes.length, at + MAX_HEAD);
  if (!startsWith(bytes, at, GET_) || bytes[at + GET_.length] !== SLASH) return null;
  const targetStart = at + GET_.length;
  let p = targetStart;
  while (p < limit && TARGET[bytes[p]!] === 1) p++;
  const targetEnd = p;
  if (!startsWith(bytes, p, _HTTP11)) return null;
  p += _HTTP11.length;

  let host = false;
  let accept: string | undefined;
  let acceptEncoding: string | undefined;
  let authorization: string | undefined;
  for (let lines = 0; ; lines++) {
    if (p + 1 >= limit) return null;
    if (bytes[p] === CR) {
      if (bytes[p + 1] !== LF || !host) return null;
      return {
        url: bytes.toString('latin1', targetStart, targetEnd),
        accept,
        acceptEncoding,
        authorization,
        end: p + 2,
      };
    }
    if (lines === MAX_HEADERS) return null;
    const nameStart = p;
    while (p < limit && TOKEN[bytes[p]!] === 1) p++;
    const nameEnd = p;
    if (nameEnd === nameStart || p >= limit || bytes[p] !== COLON) return null;
    p++;
    while (p < limit && (bytes[p] === SP || bytes[p] === HTAB)) p++;
    const valueStart = p;
    while (p < limit && VALUE[bytes[p]!] === 1) p++;
    let valueEnd = p;
    if (p + 1 >= limit || bytes[p] !== CR || bytes[p + 1] !== LF) return null;
    p += 2;
    while (valueEnd > valueStart && (bytes[valueEnd - 1] === SP || bytes[valueEnd - 1] === HTAB)) {
      valueEnd--;
    }

    switch (headerOf(bytes, nameStart, nameEnd)) {
      case Header.Other:
        break;
      case Header.Host:
        if (host || valueEnd === valueStart) return null;
        host = true;
        break;
      case Header.Accept:
        if (accept !== undefined) return null;
        accept = bytes.toString('latin1', valueStart, valueEnd);
        break;
      case Header.AcceptEncoding:
        if (acceptEncoding !== undefined) return null;
        acceptEncoding = bytes.toString('latin1', valueStart, valueEnd);
        break;
      case Header.Authorization:
        if (authorization !== undefined) return null;
        authorization = bytes.toString('latin1', valueStart, valueEnd);
        break;
      case Header.Connection:
        if (!equalsLower(bytes, valueStart, valueEnd, 'keep-alive')) return null;
        break;
      case Header.Refused:
        return null;
    }
  }
}

/** The headers told apart; `Refused`: its request is left to Node (a body, a conditional, …). */
const Header = {
  Other: 0,
  Host: 1,
  Accept: 2,
  AcceptEncoding: 3,
  Authorization: 4,
  Connection: 5,
  Refused: 6,
} as const;
type Header = (typeof Header)[keyof typeof Header];

/** The headers looked at, by name (lower case). */
const NAMED: ReadonlyArray<readonly [string, Header]> = [
  ['host', Header.Host],
  ['accept', Header.Accept],
  ['accept-encoding', Header.AcceptEncoding],
  ['authorization', Header.Authorization],
  ['connection', Header.Connection],
  ['content-length', Header.Refused],
  ['transfer-encoding', Header.Refused],
  ['expect', Header.Refused],
  ['upgrade', Header.Refused],
  ['if-none-match', Header.Refused],
];

function headerOf(bytes: Buffer, start: number, end: number): Header {
  const length = end - start;
  for (let i = 0; i < NAMED.length; i++) {
    const named = NAMED[i]!;
    if (named[0].length === length && equalsLower(bytes, start, end, named[0])) return named[1];
  }
  return Header.Other;
}

/** True when the ASCII bytes from `start` to `end` are `lower`, compared without case. */
function equalsLower(bytes: Buffer, start: number, end: number, lower: string): boolean {
  if (end - start !== lower.length) return false;
  for (let i = 0; i < lower.length; i++) {
    // ORing 0x20 lowers ASCII letters and keeps `-`; of the bytes read here (tokens, values),
    // no other one becomes a letter or `-` by it.
    if ((bytes[start + i]! | 0x20) !== lower.charCodeAt(i)) return false;
  }
  return true;
}

function startsWith(bytes: Buffer, at: number, prefix: Buffer): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

function byteSet(chars: string): Uint8Array {
  const set = new Uint8Array(256);
  for (let i = 0; i < chars.length; i++) set[chars.charCodeAt(i)] = 1;
  return set;
}

function byteRange(from: number, to: number, also: number[]): Uint8Array {
  const set = new Uint8Array(256);
  for (let b = from; b <= to; b++) set[b] = 1;
  for (const b of also) set[b] = 1;
  return set;
}
