/**
 * The fast path: a request handler in front of Fastify's (its `serverFactory`) that answers the
 * common case — a GET of a document some route already rendered and cached — without Fastify's
 * request pipeline, which costs more than the answer itself (README "Performance"). It answers
 * only when it can give exactly the answer Fastify would give; everything else goes to Fastify
 * untouched: other methods, a miss, a conditional request, an Accept or Accept-Encoding that
 * needs full negotiation, a request with a body, an unknown or uncached key, a key over its
 * budget, and every request once the app is closing.
 *
 * What it does per answer is what the Fastify path does on a cache hit: the key check (the
 * guard's own cache), the rate-limit count (@fastify/rate-limit's own counting, same store,
 * same key), the CORS headers, the route's headers and bytes (from the cache's own answer
 * function), the access line and the request metrics with the route's labels
 * (src/http/fast-send.ts). What a source answers is described in src/http/fast-answer.ts.
 */
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { FastifyServerFactory } from 'fastify';
import type { FastAnswer, FastPathDeps, FastRequest, FastSource } from './fast-answer.ts';
import { fastSenders, type Senders } from './fast-send.ts';
import { takeConnections, type RawConnections } from './raw-connections.ts';
import { readGet } from './raw-get.ts';
import { commonMediaType } from './content-negotiation.ts';
import { gzipAccepted } from './precompressed.ts';

export type {
  AccessLines,
  FastAnswer,
  FastPathDeps,
  FastRequest,
  FastSource,
  RateCount,
  RouteLine,
} from './fast-answer.ts';

export interface FastPath {
  /** Fastify's `serverFactory` option: the server whose handler tries the fast path first. */
  serverFactory: FastifyServerFactory;
  /** Adds a cache that may answer. */
  add(source: FastSource): void;
  /** Starts answering (once the app is ready); before, every request goes to Fastify. */
  enable(deps: FastPathDeps): void;
  /** Stops answering: every request goes to Fastify (from the app's preClose on). */
  disable(): void;
}

/** The server options Fastify hands its server factory, its defaults filled in (ms). */
interface ServerOptions {
  http?: http.ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket: number;
}

/** Creates the fast path of one app. */
export function createFastPath(): FastPath {
  const sources: FastSource[] = [];
  let deps: FastPathDeps | null = null;
  let senders: Senders | null = null;
  let keepAliveMs = 0;
  let connections: RawConnections | null = null;

  /** The cached answer to a GET of `url` with these headers, if some source has it. */
  function lookup(
    url: string,
    accept: string | undefined,
    acceptEncoding: string | undefined,
    now: number,
  ): FastAnswer | null {
    const type = commonMediaType(accept);
    const gzip = gzipAccepted(acceptEncoding);
    if (type === null || gzip === null) return null;
    const request: FastRequest = {
      url,
      gzip,
      type,
      now,
      identityAsked: acceptEncoding === undefined,
    };
    for (const source of sources) {
      const answer = source(request);
      if (answer !== null) return answer;
    }
    return null;
  }

  /** True when the request is answered here (or will be); false hands it to Fastify. */
  function tryAnswer(req: IncomingMessage, res: ServerResponse): boolean {
    const d = deps;
    const s = senders;
    if (d === null || s === null || req.method !== 'GET') return false;
    // Node builds the headers object of every request anyway (it reads Host and Expect).
    const h = req.headers;
    // Conditional requests (304s), bodies where none belong, no Host, Expect: Fastify's to answer.
    if (h['if-none-match'] !== undefined || h['content-length'] !== undefined) return false;
    if (h['transfer-encoding'] !== undefined || h.host === undefined) return false;
    if (h.expect !== undefined) return false;
    const started = performance.now();
    const now = d.now();
    const answer = lookup(req.url!, h.accept, h['accept-encoding'], now);
    if (answer === null) return false;
    if (!answer.keyed) {
      s.send(res, started, answer, null, null, now);
      return true;
    }
    const key = d.cachedKey(h.authorization);
    if (key === null) return false;
    if (d.countNow !== undefined) {
      const count = d.countNow(key);
      // Over budget: Fastify counts it again (no change once over) and answers the 429.
      if (count.isExceeded) return false;
      s.send(res, started, answer, key, count, now);
      return true;
    }
    d.count(key).then(
      (count) => {
        // Over budget: Fastify counts it again (no change once over) and answers the 429.
        if (count.isExceeded) return fallThrough(req, res);
        s.send(res, started, answer, key, count, d.now());
      },
      () => fallThrough(req, res),
    );
    return true;
  }

  /**
   * Answers on the connection the plain GET at `at` in `chunk` (src/http/raw-get.ts), as
   * tryAnswer would; -1 when it does not. A key counted in a store that answers later (Redis)
   * is answered once counted (see AnswerAt).
   */
  function answerAt(chunk: Buffer, at: number, socket: Socket): number | Promise<number> {
    const d = deps;
    const s = senders;
    if (d === null || s === null) return -1;
    const get = readGet(chunk, at);
    if (get === null) return -1;
    const started = performance.now();
    const now = d.now();
    const answer = lookup(get.url, get.accept, get.acceptEncoding, now);
    if (answer === null) return -1;
    if (!answer.keyed) {
      s.sendRaw(socket, started, answer, null, null, now);
      return get.end;
    }
    const key = d.cachedKey(get.authorization);
    if (key === null) return -1;
    if (d.countNow === undefined) {
      return d.count(key).then((count) => {
        // Over budget: Fastify counts it again (no change once over) and answers the 429.
        if (count.isExceeded || socket.destroyed) return -1;
        s.sendRaw(socket, started, answer, key, count, d.now());
        return get.end;
      });
    }
    const count = d.countNow(key);
    // Over budget: Fastify counts it again (no change once over) and answers the 429.
    if (count.isExceeded) return -1;
    s.sendRaw(socket, started, answer, key, count, now);
    return get.end;
  }

  let fastify: RequestListener | null = null;
  const fallThrough = (req: IncomingMessage, res: ServerResponse): void => {
    fastify!(req, res);
  };

  return {
    serverFactory(handler, given) {
      fastify = handler as RequestListener;
      // Fastify has filled in its defaults; it sets these on the server it makes itself.
      const options = given as unknown as ServerOptions;
      const server = http.createServer(options.http ?? {}, (req, res) => {
        if (!tryAnswer(req, res)) fastify!(req, res);
      });
      server.keepAliveTimeout = options.keepAliveTimeout;
      server.requestTimeout = options.requestTimeout;
      server.setTimeout(options.connectionTimeout);
      if (options.maxRequestsPerSocket > 0) {
        // Node counts a connection's requests to close it after the last; left to Node alone.
        server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      } else {
        keepAliveMs = options.keepAliveTimeout;
        connections = takeConnections(server, keepAliveMs);
      }
      return server;
    },
    add(source) {
      sources.push(source);
    },
    enable(given) {
      senders = fastSenders(given, keepAliveMs);
      deps = given;
      connections?.enable(answerAt);
    },
    disable() {
      deps = null;
      senders = null;
      connections?.disable();
    },
  };
}

/** One sequence of request ids for both paths. */
export interface RequestIds {
  /** The next id as a number: the fast path's access line writes it as `req-<base 36>`. */
  next(): number;
  /** The next id as text, in Fastify's own format (`req-<base 36 counter>`): its genReqId. */
  nextText(): string;
}

/** A request id sequence; the fast path makes no text of its ids (src/http/access-line-bytes.ts). */
export function requestIds(): RequestIds {
  let last = 0;
  const next = (): number => (last = (last + 1) & 0x7fffffff);
  return { next, nextText: () => `req-${next().toString(36)}` };
}
