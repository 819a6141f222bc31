/**
 * A GET written byte for byte as a given client library writes it: the request line with the
 * query exactly as that library encodes it, and its header lines in its order (no header added
 * by Node). The answer is read off the socket as it arrives — Content-Length or chunked body —
 * and its body decoded the way the library's HTTP stack decodes it (gzip only when the answer
 * says so), so a test sees what the library's parser would be given.
 */
import net from 'node:net';
import zlib from 'node:zlib';
import { parseResponseHead } from './raw-http.ts';

export interface WireAnswer {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The body as sent, before any decoding. */
  raw: Buffer;
  /** The body after Content-Encoding is undone. */
  text: string;
}

/** `[name, value]` header lines, in the order the client writes them. */
export type HeaderLines = ReadonlyArray<readonly [string, string]>;

/**
 * Sends `GET <target> HTTP/1.1` with `Host: 127.0.0.1:<port>` first, then `headers`, on a new
 * connection, and resolves with the first answer. `target` is sent unchanged: it must already
 * be encoded the way the library encodes it.
 */
export function wireGet(port: number, target: string, headers: HeaderLines): Promise<WireAnswer> {
  const lines = [`GET ${target} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
  for (const [name, value] of headers) lines.push(`${name}: ${value}`);
  const request = `${lines.join('\r\n')}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (error: Error | null, answer?: WireAnswer): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (error) reject(error);
      else resolve(answer!);
    };
    socket.setTimeout(10_000, () => finish(new Error(`no complete answer to ${target}`)));
    socket.on('error', (error) => finish(error));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const answer = parseAnswer(received, false);
      if (answer) finish(null, answer);
    });
    socket.on('end', () => {
      const answer = parseAnswer(received, true);
      finish(answer ? null : new Error(`connection closed before an answer to ${target}`), answer!);
    });
    socket.write(request, 'latin1');
  });
}

/** The answer in `bytes` once complete (or at `ended`, whatever arrived), else null. */
function parseAnswer(bytes: Buffer, ended: boolean): WireAnswer | null {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd === -1) return null;
  const { status, headers } = parseResponseHead(bytes.subarray(0, headEnd).toString('latin1'));
  const rest = bytes.subarray(headEnd + 4);
  let raw: Buffer | null;
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    raw = rest.length >= length ? rest.subarray(0, length) : null;
  } else if (headers['transfer-encoding'] === 'chunked') {
    raw = dechunk(rest);
  } else {
    raw = ended ? rest : null;
  }
  if (raw === null) return null;
  const decoded = headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw) : raw;
  return { status, headers, raw, text: decoded.toString('utf8') };
}

/** A chunked body joined, or null while its last (empty) chunk has not arrived. */
function dechunk(bytes: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd === -1) return null;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    const start = lineEnd + 2;
    if (bytes.length < start + size + 2) return null;
    parts.push(bytes.subarray(start, start + size));
    at = start + size + 2;
  }
}
