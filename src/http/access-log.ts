/**
 * The access log: one JSON line per answered request (Fastify's own request logging is off),
 * written by an onResponse hook. It names the route template, never the raw URL (whose query
 * may carry names a client did not mean to publish), and the key's id, never the key.
 *
 * The line has the fields a pino line has (level, time, pid, hostname, reqId, msg) and is
 * written to the app logger's own destination, so it is ordered with every other line and
 * buffered like them (src/logger.ts). It is formatted here rather than by pino: the part that
 * is the same for every answer of a route is made once when the route is added, and what
 * remains is a template string — a pino call per request cost more than the rest of a cached
 * answer's own work.
 */
import os from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { pino, type Logger } from 'pino';

type Write = (line: string) => void;

/** The function that writes a line as it is to where the app logger writes, or null when none. */
function destinationOf(log: Logger): Write | null {
  const stream = (log as unknown as Record<symbol, { write?: (line: string) => unknown }>)[
    pino.symbols.streamSym
  ];
  return typeof stream?.write === 'function' ? (line) => void stream.write!(line) : null;
}

/** What every line starts with, up to `"time":`. */
const LEVEL = `{"level":${pino.levels.values.info},"time":`;

/** Writes one request line; `fixed` holds the `"method":…,"route":…` part. */
function lineWriter(
  write: Write,
): (fixed: string, request: FastifyRequest, reply: FastifyReply) => void {
  const processPart = `,"pid":${process.pid},"hostname":${JSON.stringify(os.hostname())},"reqId":`;
  return (fixed, request, reply) => {
    const keyId = request.apiKey?.id;
    const ms = Math.round(reply.elapsedTime * 100) / 100;
    write(
      `${LEVEL}${Date.now()}${processPart}${JSON.stringify(request.id)},${fixed},"status":${reply.statusCode},"ms":${ms},"keyId":${keyId === undefined ? 'null' : JSON.stringify(keyId)},"msg":"request"}\n`,
    );
  };
}

const asArray = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/**
 * Writes an access line for every route added after this call, and for requests no route
 * took (route null). Does nothing when the logger does not log `info`.
 */
export function registerAccessLog(app: FastifyInstance): void {
  const log = app.log as unknown as Logger;
  const write = destinationOf(log);
  if (write === null || !log.isLevelEnabled('info')) return;
  const writeLine = lineWriter(write);

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = asArray(route.method);
    const route_ = JSON.stringify(route.url);
    const fixed =
      methods.length === 1 ? `"method":${JSON.stringify(methods[0])},"route":${route_}` : null;
    route.onResponse = [
      ...asArray(route.onResponse),
      function accessLine(request, reply, done) {
        writeLine(
          fixed ?? `"method":${JSON.stringify(request.method)},"route":${route_}`,
          request,
          reply,
        );
        done();
      },
    ];
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) {
      writeLine(`"method":${JSON.stringify(request.method)},"route":null`, request, reply);
    }
    done();
  });
}
