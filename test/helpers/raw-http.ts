/**
 * Raw HTTP/1.1 over a TCP socket, for requests no HTTP client would send (malformed request
 * lines, oversized headers, unknown methods) and for answers written before any route runs.
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface RawResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

/** Starts the app on 127.0.0.1, on a free port, and returns the port. */
export async function listenOnFreePort(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as net.AddressInfo).port;
}

/** The status and headers (names lower-cased) of a response head, without its blank line. */
export function parseResponseHead(head: string): Omit<RawResponse, 'body'> {
  const [statusLine, ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers };
}

/** Parses the first response in `text`; its body is Content-Length bytes (or the rest). */
export function parseRawResponse(text: string): RawResponse {
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd === -1) throw new Error(`no complete response in ${JSON.stringify(text)}`);
  const { status, headers } = parseResponseHead(text.slice(0, headEnd));
  const rest = text.slice(headEnd + 4);
  const length = headers['content-length'];
  return { status, headers, body: length === undefined ? rest : rest.slice(0, Number(length)) };
}

/** An open connection: write requests, read everything answered until the server closes it. */
export function openConnection(port: number): {
  write(data: string): void;
  /** All bytes received, once the server has closed the connection. */
  closed: Promise<string>;
} {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (received += chunk));
  const closed = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(received));
    // A reset after the answer was sent still leaves the answer to inspect.
    socket.on('error', () => undefined);
  });
  socket.setTimeout(10_000, () => socket.destroy());
  return { write: (data) => void socket.write(data, 'latin1'), closed };
}

/** Sends bytes on a fresh connection and parses the first response the server writes back. */
export async function rawRequest(port: number, request: string): Promise<RawResponse> {
  const connection = openConnection(port);
  connection.write(request);
  return parseRawResponse(await connection.closed);
}
