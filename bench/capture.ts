/**
 * Captures what the service answers for each benchmarked path — status, headers and the body
 * as sent (still gzip) — so the bare server can replay exactly the same response, and hands
 * the bench raw GETs (fetch would decompress the body and hide how it was sent).
 */
import fs from 'node:fs';
import http from 'node:http';

export interface CapturedResponse {
  status: number;
  /** The headers to replay; `content-length` is the body's. */
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** A GET whose body is returned as received. */
export function getRaw(
  url: string,
  headers: Readonly<Record<string, string>>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    });
    request.setTimeout(30_000, () => request.destroy(new Error(`GET ${url} timed out`)));
    request.on('error', reject);
  });
}

/** Headers that belong to one connection or one moment, which node:http writes itself. */
const NOT_REPLAYED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The replayable part of a response's headers (everything but NOT_REPLAYED). */
export function replayableHeaders(
  headers: http.IncomingHttpHeaders,
  bodyLength: number,
): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !NOT_REPLAYED.has(name)) kept[name] = value;
  }
  kept['content-length'] = String(bodyLength);
  return kept;
}

/** Fetches every path from the service, a few at a time, and returns what it answered. */
export async function captureResponses(
  origin: string,
  paths: readonly string[],
  headers: Readonly<Record<string, string>>,
): Promise<Map<string, CapturedResponse>> {
  const captured = new Map<string, CapturedResponse>();
  const queue = [...new Set(paths)];
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const response = await getRaw(origin + next, headers);
      captured.set(next, {
        status: response.status,
        headers: replayableHeaders(response.headers, response.body.length),
        body: response.body,
      });
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return captured;
}

interface ManifestEntry {
  path: string;
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

/** Writes the bare server's manifest: every captured response, bodies in base64. */
export function writeBareManifest(
  file: string,
  responses: ReadonlyMap<string, CapturedResponse>,
): void {
  const entries: ManifestEntry[] = [...responses].map(([path, response]) => ({
    path,
    status: response.status,
    headers: response.headers,
    body: response.body.toString('base64'),
  }));
  fs.writeFileSync(file, JSON.stringify(entries));
}

/** Reads a manifest written by writeBareManifest, keyed by request path (with query). */
export function readBareManifest(file: string): Map<string, CapturedResponse> {
  const entries = JSON.parse(fs.readFileSync(file, 'utf8')) as ManifestEntry[];
  return new Map(
    entries.map((entry) => [
      entry.path,
      { status: entry.status, headers: entry.headers, body: Buffer.from(entry.body, 'base64') },
    ]),
  );
}
