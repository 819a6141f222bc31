/**
 * What the fast path (src/http/fast-path.ts) asks of the caches that may answer in front of
 * Fastify, and what it needs from the app to answer as the Fastify path would.
 */
import type { ApiKey } from '../store/api-keys.ts';
import type { MediaType } from './jsonapi.ts';
import type { RequestId } from './access-line-bytes.ts';

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
   * takes (name, value, name, value, …; names lower case, each once). A source hands out the
   * same array for as long as these are the answer's headers (a new one once any value
   * changes), and never changes one it handed out: the sender keeps the whole list it makes of
   * each, so nothing is built per answer.
   */
  headers: readonly string[];
  body: Buffer;
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

/** Writes the access line of a `GET` answered 200 in `ms` (unrounded). */
export type RouteLine = (reqId: RequestId, ms: number, keyId: string | null) => void;

/** The access line writer of one route's answers, asked once per route. */
export type AccessLines = (route: string) => RouteLine;

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
  /** The next request id of the sequence Fastify's ids come from, so ids stay unique and alike. */
  nextRequestId(): number;
}
