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
 * function), the access line and the request metrics with the route's labels.
 */
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyServerFactory } from 'fastify';
import type { ApiKey } from '../store/api-keys.ts';
import type { MediaType } from './jsonapi.ts';
import { commonMediaType } from './content-negotiation.ts';
import { gzipAccepted } from './precompressed.ts';

/** What a source is asked: the request as far as a cached answer depends on it. */
export interface FastRequest {
  /** The raw request URL, path and query, as Fastify's `request.url`. */
  url: string;
  /** Whether the answer is gzip-encoded (the client accepts gzip). */
  gzip: boolean;
  /** No Accept-Encoding at all (the compression plugin then adds no Vary). */
  identityAsked: boolean;
  /** The negotiated Content-Type. */
  type: MediaType;
  /** The app clock's now, epoch ms. */
  now: number;
}

/** A cached 200 answer, as its route would send it. */
export interface FastAnswer {
  /** The route template: the access line's and the metrics' route label. */
  route: string;
  /** Needs a read key and counts against its rate limit. */
  keyed: boolean;
  /**
   * The route's own headers in the order the route sets them, as the flat list `writeHead`
   * takes (name, value, name, value, …; names lower case, each once): no object is built and
   * walked per answer.
   */
  headers: readonly string[];
  body: Buffer;
  /**
   * The source returns this same answer object, unchanged, every time (a constant document):
   * its whole header list is then made once.
   */
  constant?: boolean;
}

/** A cache that can answer some URLs; null when it cannot answer this one exactly as its route. */
export type FastSource = (request: FastRequest) => FastAnswer | null;

/** The result of counting a request against its key's budget (the rate-limit plugin's own). */
export interface RateCount {
  max: number;
  remaining: number;
  ttlInSeconds: number;
  isExceeded: boolean;
}

/** What the fast path answers with; handed over once the app is built (`enable`). */
export interface FastPathDeps {
  now(): number;
  /** The read key `Authorization` names when the guard has it cached and valid; else null. */
  cachedKey(authorization: string | undefined): ApiKey | null;
  /** Counts one request of `key` in the rate-limit plugin's store. */
  count(key: ApiKey): Promise<RateCount>;
  /** `count` at once, when the store answers synchronously (in memory); absent otherwise. */
  countNow?: (key: ApiKey) => RateCount;
  /** The headers the rate-limit onSend hook writes for a reset `secondsLeft` from `now`. */
  resetHeaders(secondsLeft: number, now: number): { date: string; reset: number };
  /** Headers the CORS plugin adds to a simple GET, as a flat list (name, value, …). */
  corsHeaders: readonly string[];
  /** The access line writers of the fast path's answers, or null when the access log is off. */
  accessLine: AccessLines | null;
  /** Records the request metrics, or null with METRICS=off. */
  record: ((route: string, method: string, status: number, seconds: number) => void) | null;
  /** Fastify's request id generator, shared so ids stay unique and alike. */
  genReqId(): string;
}

/** Writes the access line of a `GET` answered 200 in `ms` (unrounded). */
export type RouteLine = (reqId: string, ms: number, keyId: string | null) => void;

/** The access line writer of one route's answers, asked once per route. */
export type AccessLines = (route: string) => RouteLine;

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

  function find(request: FastRequest): FastAnswer | null {
    for (const source of sources) {
      const answer = source(request);
      if (answer !== null) return answer;
    }
    return null;
  }

  /** The access line writer of each route answered so far (the routes are few). */
  let lines = new Map<string, RouteLine | null>();
  const lineOf = (d: FastPathDeps, route: string): RouteLine | null => {
    let line = lines.get(route);
    if (line === undefined) {
      line = d.accessLine?.(route) ?? null;
      lines.set(route, line);
    }
    return line;
  };

  /** The header lists of constant answers, made on their first send (the app's CORS headers). */
  let constantHeaders = new WeakMap<FastAnswer, (string | number)[]>();

  function answerHeaders(
    d: FastPathDeps,
    answer: FastAnswer,
    count: RateCount | null,
    now: number,
  ): (string | number)[] {
    const headers: (string | number)[] = [...d.corsHeaders];
    let date: string | null = null;
    if (count !== null) {
      const reset = d.resetHeaders(count.ttlInSeconds, now);
      headers.push('x-ratelimit-limit', count.max, 'x-ratelimit-remaining', count.remaining);
      headers.push('x-ratelimit-reset', reset.reset);
      date = reset.date;
    }
    const own = answer.headers;
    for (let i = 0; i < own.length; i++) headers.push(own[i]!);
    if (date !== null) headers.push('date', date);
    headers.push('content-length', answer.body.length);
    return headers;
  }

  function send(
    d: FastPathDeps,
    res: ServerResponse,
    started: number,
    answer: FastAnswer,
    key: ApiKey | null,
    count: RateCount | null,
    now: number,
  ): void {
    // What the Fastify path sends, in its order: CORS, the rate limit, the route's, Date.
    let headers: (string | number)[] | undefined;
    if (answer.constant === true && count === null) {
      headers = constantHeaders.get(answer);
      if (headers === undefined) {
        headers = [...d.corsHeaders, ...answer.headers, 'content-length', answer.body.length];
        constantHeaders.set(answer, headers);
      }
    } else {
      headers = answerHeaders(d, answer, count, now);
    }
    res.writeHead(200, headers as string[]);
    res.end(answer.body);
    const reqId = d.genReqId();
    const ms = performance.now() - started;
    lineOf(d, answer.route)?.(reqId, ms, key?.id ?? null);
    d.record?.(answer.route, 'GET', 200, ms / 1000);
  }

  /** True when the request is answered here (or will be); false hands it to Fastify. */
  function tryAnswer(req: IncomingMessage, res: ServerResponse): boolean {
    const d = deps;
    if (d === null || req.method !== 'GET') return false;
    // Node builds the headers object of every request anyway (it reads Host and Expect).
    const h = req.headers;
    // Conditional requests (304s), bodies where none belong, no Host, Expect: Fastify's to answer.
    if (h['if-none-match'] !== undefined || h['content-length'] !== undefined) return false;
    if (h['transfer-encoding'] !== undefined || h.host === undefined) return false;
    if (h.expect !== undefined) return false;
    const type = commonMediaType(h.accept);
    const gzip = gzipAccepted(h['accept-encoding']);
    if (type === null || gzip === null) return false;
    const started = performance.now();
    const now = d.now();
    const identityAsked = h['accept-encoding'] === undefined;
    const answer = find({ url: req.url!, gzip, type, now, identityAsked });
    if (answer === null) return false;
    if (!answer.keyed) {
      send(d, res, started, answer, null, null, now);
      return true;
    }
    const key = d.cachedKey(h.authorization);
    if (key === null) return false;
    if (d.countNow !== undefined) {
      const count = d.countNow(key);
      // Over budget: Fastify counts it again (no change once over) and answers the 429.
      if (count.isExceeded) return false;
      send(d, res, started, answer, key, count, now);
      return true;
    }
    d.count(key).then(
      (count) => {
        // Over budget: Fastify counts it again (no change once over) and answers the 429.
        if (count.isExceeded) return fallThrough(req, res);
        send(d, res, started, answer, key, count, d.now());
      },
      () => fallThrough(req, res),
    );
    return true;
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
      if (options.maxRequestsPerSocket > 0)
        server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      return server;
    },
    add(source) {
      sources.push(source);
    },
    enable(given) {
      lines = new Map();
      constantHeaders = new WeakMap();
      deps = given;
    },
    disable() {
      deps = null;
    },
  };
}

/** A request id generator in Fastify's own format (`req-<base 36 counter>`), for both paths. */
export function requestIds(): () => string {
  let next = 0;
  return () => {
    next = (next + 1) & 0x7fffffff;
    return `req-${next.toString(36)}`;
  };
}
