/**
 * The access log: one JSON line per answered request (Fastify's own request logging is off),
 * written by an onResponse hook. It names the route template, never the raw URL (whose query
 * may carry names a client did not mean to publish), and the key's id, never the key.
 *
 * The line has the fields a pino line has (level, time, pid, hostname, reqId, msg) and is
 * written to the app logger's own destination, buffered like every other line (src/logger.ts),
 * at the end of the event-loop turn that answered it. It is formatted here rather than by pino: the part that
 * is the same for every answer of a route is made once when the route is added, and what
 * remains is a template string — a pino call per request cost more than the rest of a cached
 * answer's own work.
 */
import os from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { pino, type Logger } from 'pino';
import type { AccessLine } from './fast-path.ts';

type Write = (line: string) => void;

/** Bytes of access lines gathered before they are handed over at once, whatever the turn. */
const BATCH_BYTES = 16_384;

/**
 * The function that writes a line as it is to where the app logger writes, or null when none.
 * The lines of one turn of the event loop are handed over in one write: the logger's buffered
 * destination (sonic-boom) measures the whole buffer waiting on every write, so a write per line
 * costs in proportion to what waits. Lines still gathered when the process exits in the same
 * turn are lost; an orderly stop lets the turn end first.
 */
function destinationOf(log: Logger): Write | null {
  const stream = (log as unknown as Record<symbol, { write?: (line: string) => unknown }>)[
    pino.symbols.streamSym
  ];
  if (typeof stream?.write !== 'function') return null;
  let gathered = '';
  const flush = (): void => {
    if (gathered === '') return;
    const lines = gathered;
    gathered = '';
    stream.write!(lines);
  };
  return (line) => {
    if (gathered === '') setImmediate(flush);
    gathered += line;
    if (gathered.length >= BATCH_BYTES) flush();
  };
}

/** What every line starts with, up to `"time":`. */
const LEVEL = `{"level":${pino.levels.values.info},"time":`;

/** Writes one request line; `fixed` holds the `"method":…,"route":…` part. */
function lineWriter(
  write: Write,
): (fixed: string, reqId: string, status: number, ms: number, keyId: string | null) => void {
  const processPart = `,"pid":${process.pid},"hostname":${JSON.stringify(os.hostname())},"reqId":`;
  return (fixed, reqId, status, ms, keyId) => {
    write(
      `${LEVEL}${Date.now()}${processPart}${JSON.stringify(reqId)},${fixed},"status":${status},"ms":${ms},"keyId":${keyId === null ? 'null' : JSON.stringify(keyId)},"msg":"request"}\n`,
    );
  };
}

const fixedPart = (method: string, route: string | null): string =>
  `"method":${JSON.stringify(method)},"route":${JSON.stringify(route)}`;

const elapsedMs = (reply: FastifyReply): number => Math.round(reply.elapsedTime * 100) / 100;

const asArray = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/**
 * Writes an access line for every route added after this call, and for requests no route
 * took (route null). Does nothing when the logger does not log `info`. Returns the same line
 * writer for the fast path (src/http/fast-path.ts), or null when there is no access log.
 */
export function registerAccessLog(app: FastifyInstance): AccessLine | null {
  const log = app.log as unknown as Logger;
  const write = destinationOf(log);
  if (write === null || !log.isLevelEnabled('info')) return null;
  const writeLine = lineWriter(write);
  const line = (request: FastifyRequest, reply: FastifyReply, fixed: string): void =>
    writeLine(fixed, request.id, reply.statusCode, elapsedMs(reply), request.apiKey?.id ?? null);

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = asArray(route.method);
    const fixed = methods.length === 1 ? fixedPart(methods[0]!, route.url) : null;
    route.onResponse = [
      ...asArray(route.onResponse),
      function accessLine(request, reply, done) {
        line(request, reply, fixed ?? fixedPart(request.method, route.url));
        done();
      },
    ];
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) line(request, reply, fixedPart(request.method, null));
    done();
  });

  // The fast path's routes are few: their fixed parts are made once each.
  const fixedOf = new Map<string, string>();
  return (method, route, reqId, status, ms, keyId) => {
    let fixed = fixedOf.get(route);
    if (fixed === undefined) {
      fixed = fixedPart(method, route);
      fixedOf.set(route, fixed);
    }
    writeLine(fixed, reqId, status, ms, keyId);
  };
}
