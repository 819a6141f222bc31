/**
 * How the fast path (src/http/fast-path.ts) sends an answer: the headers the Fastify path
 * would send, in its order, then the access line and the request metrics of the route.
 */
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { ApiKey } from '../store/api-keys.ts';
import type { FastAnswer, FastPathDeps, RateCount, RouteLine } from './fast-answer.ts';
import { decimalText } from './decimal-text.ts';

/** Sends `answer` (200) for a request that started at `started` (performance.now(), ms). */
export type Send = (
  res: ServerResponse,
  started: number,
  answer: FastAnswer,
  key: ApiKey | null,
  count: RateCount | null,
  now: number,
) => void;

/** A route's headers made into the whole list sent, for a body of `bodyLength` bytes. */
interface WholeList {
  list: (string | number)[];
  bodyLength: number;
}

/**
 * Where the per-request values go in a keyed answer's list, from the end of the CORS headers:
 * `x-ratelimit-limit`, `-remaining` and `-reset` values; the Date value from the list's end.
 */
const LIMIT_AT = 1;
const REMAINING_AT = 3;
const RESET_AT = 5;
const DATE_FROM_END = 3;

/** The sender of one enabled fast path: what it makes once per route or answer is kept here. */
export function fastSender(d: FastPathDeps): Send {
  /** The access line writer of each route answered so far (the routes are few). */
  const lines = new Map<string, RouteLine | null>();
  const lineOf = (route: string): RouteLine | null => {
    let line = lines.get(route);
    if (line === undefined) {
      line = d.accessLine?.(route) ?? null;
      lines.set(route, line);
    }
    return line;
  };

  /**
   * The whole list of each route header list a source handed out (sources keep theirs while
   * they stand, see FastAnswer), so that a cached answer's headers are not copied per request:
   * unkeyed, the list sent as it is; keyed, the list a request's rate-limit values and Date are
   * written into (each request its own copy).
   */
  const unkeyed = new WeakMap<readonly string[], WholeList>();
  const keyed = new WeakMap<readonly string[], WholeList>();
  const cors = d.corsHeaders.length;

  function wholeList(answer: FastAnswer, counted: boolean): (string | number)[] {
    const lists = counted ? keyed : unkeyed;
    const made = lists.get(answer.headers);
    if (made !== undefined && made.bodyLength === answer.body.length) return made.list;
    const list: (string | number)[] = [...d.corsHeaders];
    // What the Fastify path sends, in its order: CORS, the rate limit, the route's, Date.
    if (counted)
      list.push('x-ratelimit-limit', 0, 'x-ratelimit-remaining', '', 'x-ratelimit-reset', 0);
    list.push(...answer.headers);
    if (counted) list.push('date', '');
    list.push('content-length', String(answer.body.length));
    lists.set(answer.headers, { list, bodyLength: answer.body.length });
    return list;
  }

  return (res, started, answer, key, count, now) => {
    let headers = wholeList(answer, count !== null);
    if (count !== null) {
      headers = headers.slice();
      const reset = d.resetHeaders(count.ttlInSeconds, now);
      headers[cors + LIMIT_AT] = count.max;
      // The remaining budget is new on every answer: its text is made without V8's cache.
      headers[cors + REMAINING_AT] = decimalText(count.remaining);
      headers[cors + RESET_AT] = reset.reset;
      headers[headers.length - DATE_FROM_END] = reset.date;
    }
    res.writeHead(200, headers as string[]);
    res.end(answer.body);
    const ms = performance.now() - started;
    lineOf(answer.route)?.(d.nextRequestId(), ms, key?.id ?? null);
    d.record?.(answer.route, 'GET', 200, ms / 1000);
  };
}
