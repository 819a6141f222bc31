/**
 * The access log: one JSON line per answered request (Fastify's own request logging is off),
 * written by an onResponse hook. It names the route template, never the raw URL (whose query
 * may carry names a client did not mean to publish), and the key's id, never the key.
 *
 * The line has the fields a pino line has (level, time, pid, hostname, reqId, msg) and is
 * written to the app logger's own destination, buffered like every other line (src/logger.ts):
 * lines are gathered and handed over a buffer's worth at a time, or within LOG_FLUSH_MS, so an
 * access line may reach the log up to that much after a line logged later. It is written here
 * rather than by pino, as bytes into the batch (src/http/access-line-bytes.ts): the part that is
 * the same for every answer of a route is encoded once when the route is added — a pino call per
 * request cost more than the rest of a cached answer's own work.
 */
import os from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { pino, type Logger } from 'pino';
import type { AccessLines } from './fast-path.ts';
import { LOG_BUFFER_BYTES } from '../logger.ts';
import { lineBatch } from './access-log-batch.ts';
import { lineEncoder, routePart } from './access-line-bytes.ts';

/**
 * Bytes of access lines gathered before they are handed over at once: the logger's own buffer
 * size, so that the destination writes each handover at once instead of appending it to lines
 * still waiting.
 */
const BATCH_BYTES = LOG_BUFFER_BYTES;

/** What every line starts with, up to `"time":`. */
const LEVEL = `{"level":${pino.levels.values.info},"time":`;

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
  const afterTime = `,"pid":${process.pid},"hostname":${JSON.stringify(os.hostname())},"reqId":`;
  const writeLine = lineEncoder(destination, LEVEL, afterTime);
  const line = (request: FastifyRequest, reply: FastifyReply, fixed: Buffer): void =>
    writeLine(fixed, request.id, reply.statusCode, reply.elapsedTime, request.apiKey?.id ?? null);

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = asArray(route.method);
    const fixed = methods.length === 1 ? routePart(methods[0]!, route.url) : null;
    route.onResponse = [
      ...asArray(route.onResponse),
      function accessLine(request, reply, done) {
        line(request, reply, fixed ?? routePart(request.method, route.url));
        done();
      },
    ];
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) line(request, reply, routePart(request.method, null));
    done();
  });

  // The fast path's routes are few: each gets a writer with its fixed part made once.
  return (route) => {
    const fixed = routePart('GET', route);
    return (reqId, ms, keyId) => writeLine(fixed, reqId, 200, ms, keyId);
  };
}
