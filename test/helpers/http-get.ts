/**
 * GET requests over a real connection, for what `inject` cannot reach: the server's own request
 * handler in front of Fastify (src/http/fast-path.ts).
 */
import http from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** GETs `path` from 127.0.0.1:`port` with `headers`, the body as received (not decoded). */
export function httpGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}
