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

  /** The header lists of constant answers, made on their first send (the app's CORS headers). */
  const constantHeaders = new WeakMap<FastAnswer, (string | number)[]>();

  function answerHeaders(
    answer: FastAnswer,
    count: RateCount | null,
    now: number,
  ): (string | number)[] {
    const headers: (string | number)[] = [...d.corsHeaders];
    let date: string | null = null;
    if (count !== null) {
      const reset = d.resetHeaders(count.ttlInSeconds, now);
      // The remaining budget is new on every answer: its text is made without V8's cache.
      headers.push('x-ratelimit-limit', count.max);
      headers.push('x-ratelimit-remaining', decimalText(count.remaining));
      headers.push('x-ratelimit-reset', reset.reset);
      date = reset.date;
    }
    const own = answer.headers;
    for (let i = 0; i < own.length; i++) headers.push(own[i]!);
    if (date !== null) headers.push('date', date);
    headers.push('content-length', answer.body.length);
    return headers;
  }

  return (res, started, answer, key, count, now) => {
    // What the Fastify path sends, in its order: CORS, the rate limit, the route's, Date.
    let headers: (string | number)[] | undefined;
    if (answer.constant === true && count === null) {
      headers = constantHeaders.get(answer);
      if (headers === undefined) {
        headers = [...d.corsHeaders, ...answer.headers, 'content-length', answer.body.length];
        constantHeaders.set(answer, headers);
      }
    } else {
      headers = answerHeaders(answer, count, now);
    }
    res.writeHead(200, headers as string[]);
    res.end(answer.body);
    const reqId = d.genReqId();
    const ms = performance.now() - started;
    lineOf(answer.route)?.(reqId, ms, key?.id ?? null);
    d.record?.(answer.route, 'GET', 200, ms / 1000);
  };
}
