/**
 * The request headers the fast path (src/http/fast-path.ts) decides on, read straight from
 * `rawHeaders`. Node builds `request.headers` — an object of every header, names lower-cased,
 * repeats joined — on first use, which costs more than the rest of the decision; a request the
 * fast path answers never needs it, and one it hands to Fastify gets it built there as before.
 */

/** Accept, Accept-Encoding and Authorization of a plain request (undefined: absent). */
export interface PlainHeaders {
  accept: string | undefined;
  acceptEncoding: string | undefined;
  authorization: string | undefined;
}

/** Whether header name `name` is `lower` (given in lower case) or `usual` (its usual spelling). */
const is = (name: string, lower: string, usual: string): boolean =>
  name === usual || name === lower || name.toLowerCase() === lower;

/**
 * Fills `into` from `raw` (a request's `rawHeaders`) and says whether the request is plain: it
 * has a Host and no If-None-Match (a 304 is Fastify's to answer), Content-Length,
 * Transfer-Encoding (a body where none belongs) or Expect. A header read here that comes twice
 * makes it not plain too: Node would join or drop the repeats, and Fastify decides on that.
 */
export function readPlainHeaders(raw: readonly string[], into: PlainHeaders): boolean {
  into.accept = undefined;
  into.acceptEncoding = undefined;
  into.authorization = undefined;
  let host = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // Only the lengths of the names read here are looked at closer.
    switch (name.length) {
      case 4:
        if (is(name, 'host', 'Host')) {
          if (host) return false;
          host = true;
        }
        break;
      case 6:
        if (is(name, 'accept', 'Accept')) {
          if (into.accept !== undefined) return false;
          into.accept = raw[i + 1]!;
        } else if (is(name, 'expect', 'Expect')) return false;
        break;
      case 13:
        if (is(name, 'authorization', 'Authorization')) {
          if (into.authorization !== undefined) return false;
          into.authorization = raw[i + 1]!;
        } else if (is(name, 'if-none-match', 'If-None-Match')) return false;
        break;
      case 14:
        if (is(name, 'content-length', 'Content-Length')) return false;
        break;
      case 15:
        if (is(name, 'accept-encoding', 'Accept-Encoding')) {
          if (into.acceptEncoding !== undefined) return false;
          into.acceptEncoding = raw[i + 1]!;
        }
        break;
      case 17:
        if (is(name, 'transfer-encoding', 'Transfer-Encoding')) return false;
        break;
    }
  }
  return host;
}
