/**
 * The access log: one JSON line per answered request (Fastify's own request logging is off),
 * written by an onResponse hook. It names the route template, never the raw URL (whose query
 * may carry names a client did not mean to publish), and the key's id, never the key.
 *
 * The line has the fields a pino line has (level, time, pid, hostname, reqId, msg) and is
 * written to the app logger's own destination, buffered like every other line (src/logger.ts):
 * lines are gathered and handed over a buffer's worth at a time, or within LOG_FLUSH_MS, so an
 * access line may reach the log up to that much after a line logged later. It is formatted here
 * rather than by pino: the part that is the same for every answer of a route is made once when
 * the route is added, and what remains is a template string — a pino call per request cost more
 * than the rest of a cached answer's own work.
 */
import os from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { pino, type Logger } from 'pino';
import type { AccessLines } from './fast-path.ts';
import { LOG_BUFFER_BYTES } from '../logger.ts';
import { lineBatch } from './access-log-batch.ts';

type Write = (line: string) => void;

/**
 * Bytes of access lines gathered before they are handed over at once: the logger's own buffer
 * size, so that the destination writes each handover at once instead of appending it to lines
 * still waiting.
 */
const BATCH_BYTES = LOG_BUFFER_BYTES;

/** What every line starts with, up to `"time":`. */
const LEVEL = `{"level":${pino.levels.values.info},"time":`;

/** Key ids whose JSON form is kept: they are few (one per client), this only bounds a surprise. */
const MAX_KEY_IDS = 1_000;

/** Request ids written as they are, between quotes: anything else goes through JSON.stringify. */
const PLAIN_ID = /^[\w.-]+$/;

/** The text after the point of n hundredths (0–99), as JavaScript prints it: '', '.01', '.1'. */
const FRACTIONS = Array.from({ length: 100 }, (_, n) => (n === 0 ? '' : String(n / 100).slice(1)));

/**
 * `String(Math.round(ms * 100) / 100)`, the duration in ms to two decimals, made from an integer
 * and a table: an integer's text comes from V8's number-string cache, while a fraction's shortest
 * form is computed each time — a few hundred ns, once the largest part of a line.
 */
export function hundredths(ms: number): string {
  const total = Math.round(ms * 100);
  if (!(total >= 0 && total <= 0x7fffffff)) return String(total / 100);
  const whole = Math.floor(total / 100);
  return `${whole}${FRACTIONS[total - whole * 100]!}`;
}

/** Writes one line of a request whose `"method":…,"route":…` part is fixed; `ms` unrounded. */
type LineOf = (
  fixed: string,
  reqId: string,
  status: number,
  ms: number,
  keyId: string | null,
) => void;

/**
 * Writes one request line. What repeats between lines is made once: everything up to
 * `"reqId":` once per millisecond, a key id's JSON once.
 */
function lineWriter(write: Write): LineOf {
  const processPart = `,"pid":${process.pid},"hostname":${JSON.stringify(os.hostname())},"reqId":`;
  let lastTime = Number.NaN;
  let head = '';
  const keyIds = new Map<string, string>();
  const keyIdJson = (keyId: string): string => {
    let json = keyIds.get(keyId);
    if (json === undefined) {
      if (keyIds.size >= MAX_KEY_IDS) keyIds.clear();
      json = JSON.stringify(keyId);
      keyIds.set(keyId, json);
    }
    return json;
  };
  return (fixed, reqId, status, ms, keyId) => {
    const time = Date.now();
    if (time !== lastTime) {
      lastTime = time;
      head = `${LEVEL}${time}${processPart}`;
    }
    const id = PLAIN_ID.test(reqId) ? `"${reqId}"` : JSON.stringify(reqId);
    write(
      `${head}${id},${fixed},"status":${status},"ms":${hundredths(ms)},"keyId":${keyId === null ? 'null' : keyIdJson(keyId)},"msg":"request"}\n`,
    );
  };
}

const fixedPart = (method: string, route: string | null): string =>
  `"method":${JSON.stringify(method)},"route":${JSON.stringify(route)}`;

const asArray = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/**
 * Writes an access line for every route added after this call, and for requests no route
 * took (route null). Does nothing when the logger does not log `info`. Returns the same line
 * writer for the fast path's answers (src/http/fast-path.ts), one per route, or null when there
 * is no access log.
 */
export function registerAccessLog(app: FastifyInstance, flushMs: number): AccessLines | null {
  const log = app.log as unknown as Logger;
  if (!log.isLevelEnabled('info')) return null;
  const destination = lineBatch(log, BATCH_BYTES, flushMs);
  if (destination === null) return null;
  app.addHook('onClose', async () => destination.close());
  const writeLine = lineWriter(destination.write);
  const line = (request: FastifyRequest, reply: FastifyReply, fixed: string): void =>
    writeLine(fixed, request.id, reply.statusCode, reply.elapsedTime, request.apiKey?.id ?? null);

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

  // The fast path's routes are few: each gets a writer with its fixed part made once.
  return (route) => {
    const fixed = fixedPart('GET', route);
    return (reqId, ms, keyId) => writeLine(fixed, reqId, 200, ms, keyId);
  };
}
