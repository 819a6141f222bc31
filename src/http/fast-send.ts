/**
 * How the fast path (src/http/fast-path.ts) sends an answer: the headers the Fastify path
 * would send, in its order, then the access line and the request metrics of the route. An
 * answer goes through Node's ServerResponse, or as bytes on a connection the fast path reads
 * itself (src/http/raw-connections.ts): then the head is the one Node would write for the same
 * list — status line, the headers as given, `Date` unless given, `Connection: keep-alive` and
 * the keep-alive timeout.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ApiKey } from '../store/api-keys.ts';
import type { FastAnswer, FastPathDeps, RateCount, RouteLine } from './fast-answer.ts';
import { decimalText } from './decimal-text.ts';
import { httpDate } from './rate-limit.ts';

/**
 * Sends `answer` (200) on `to` for a request that started at `started` (performance.now(), ms):
 * through a ServerResponse, or on a connection the fast path reads itself, which corks it
 * around its answers.
 */
type SendOn<To> = (
  to: To,
  started: number,
  answer: FastAnswer,
  key: ApiKey | null,
  count: RateCount | null,
  now: number,
) => void;

export type Send = SendOn<ServerResponse>;
export type SendRaw = SendOn<Socket>;

export interface Senders {
  send: Send;
  sendRaw: SendRaw;
}

/** A route's headers made into the whole list sent, for a body of `bodyLength` bytes. */
interface WholeList {
  list: (string | number)[];
  bodyLength: number;
  /** An unkeyed list's status line and header lines, once written on a connection. */
  head?: string;
}

/**
 * Where the per-request values go in a keyed answer's list, from the end of the CORS headers:
 * `x-ratelimit-limit`, `-remaining` and `-reset` values; the Date value from the list's end.
 */
const LIMIT_AT = 1;
const REMAINING_AT = 3;
const RESET_AT = 5;
const DATE_FROM_END = 3;

/**
 * The senders of one enabled fast path: what they make once per route or answer is kept here.
 * `keepAliveMs`: the server's keep-alive timeout, which a head written on a connection states.
 */
export function fastSenders(d: FastPathDeps, keepAliveMs: number): Senders {
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

  function wholeList(answer: FastAnswer, counted: boolean): WholeList {
    const lists = counted ? keyed : unkeyed;
    const made = lists.get(answer.headers);
    if (made !== undefined && made.bodyLength === answer.body.length) return made;
    const list: (string | number)[] = [...d.corsHeaders];
    // What the Fastify path sends, in its order: CORS, the rate limit, the route's, Date.
    if (counted)
      list.push('x-ratelimit-limit', 0, 'x-ratelimit-remaining', '', 'x-ratelimit-reset', 0);
    list.push(...answer.headers);
    if (counted) list.push('date', '');
    list.push('content-length', String(answer.body.length));
    const whole: WholeList = { list, bodyLength: answer.body.length };
    lists.set(answer.headers, whole);
    return whole;
  }

  /** A keyed answer's own copy of its list, with its count and `Date` written in. */
  function countedList(list: (string | number)[], count: RateCount, now: number) {
    const headers = list.slice();
    const reset = d.resetHeaders(count.ttlInSeconds, now);
    headers[cors + LIMIT_AT] = count.max;
    // The remaining budget is new on every answer: its text is made without V8's cache.
    headers[cors + REMAINING_AT] = decimalText(count.remaining);
    headers[cors + RESET_AT] = reset.reset;
    headers[headers.length - DATE_FROM_END] = reset.date;
    return headers;
  }

  /** The access line and the metrics of an answer sent. */
  function sent(started: number, answer: FastAnswer, key: ApiKey | null): void {
    const ms = performance.now() - started;
    lineOf(answer.route)?.(d.nextRequestId(), ms, key?.id ?? null);
    d.record?.(answer.route, 'GET', 200, ms / 1000);
  }

  const connectionLines = keepAliveLines(keepAliveMs);

  return {
    send(res, started, answer, key, count, now) {
      const whole = wholeList(answer, count !== null);
      const headers = count === null ? whole.list : countedList(whole.list, count, now);
      res.writeHead(200, headers as string[]);
      res.end(answer.body);
      sent(started, answer, key);
    },
    sendRaw(socket, started, answer, key, count, now) {
      const whole = wholeList(answer, count !== null);
      let head: string;
      if (count === null) {
        whole.head ??= headLines(whole.list);
        // The `Date` Node adds to an answer that has none: the system clock's second.
        head = whole.head + 'Date: ' + httpDate(Date.now()) + '\r\n' + connectionLines;
      } else {
        head = headLines(countedList(whole.list, count, now)) + connectionLines;
      }
      socket.write(head, 'latin1');
      socket.write(answer.body);
      sent(started, answer, key);
    },
  };
}

/** A 200's status line and a flat header list's lines, as Node's ServerResponse writes them. */
function headLines(list: readonly (string | number)[]): string {
  let text = 'HTTP/1.1 200 OK\r\n';
  for (let i = 0; i < list.length; i += 2) text += list[i] + ': ' + list[i + 1] + '\r\n';
  return text;
}

/** The lines ending the head of a keep-alive answer, as Node writes them, and the blank line. */
function keepAliveLines(keepAliveMs: number): string {
  const timeout =
    keepAliveMs > 0 ? `Keep-Alive: timeout=${Math.floor(keepAliveMs / 1000)}\r\n` : '';
  return 'Connection: keep-alive\r\n' + timeout + '\r\n';
}
