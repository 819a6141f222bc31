/**
 * An access line written as bytes straight into the log's batch (src/http/access-log-batch.ts):
 * the parts that repeat are encoded once (the process part per millisecond, a route's part per
 * route, a key id per key), and the numbers are written digit by digit. Made as a template
 * string and encoded, each line was a few hundred bytes of new strings on the serving thread's
 * heap, joined, flattened and encoded again — with the young collections they set off, the
 * largest part of a cached answer's own work (README "Performance"). The bytes are those of the
 * text the line stands for (test/http/access-log-pino.test.ts holds them to pino's).
 */
import type { LineBatch } from './access-log-batch.ts';

/**
 * A request id: a number of the shared sequence, written `req-<base 36>` (src/http/fast-path.ts),
 * or the text Fastify's request carries.
 */
export type RequestId = number | string;

/** Writes one line: `fixed` from routePart, the status, the unrounded duration in ms. */
export type EncodeLine = (
  fixed: Buffer,
  reqId: RequestId,
  status: number,
  ms: number,
  keyId: string | null,
) => void;

/** Request ids written as they are, between quotes: anything else goes through JSON.stringify. */
const PLAIN_ID = /^[\w.-]+$/;
/** Key ids whose JSON bytes are kept: they are few (one per client), this only bounds a surprise. */
const MAX_KEY_IDS = 1_000;
/** Room for a line's numbers: the status, the duration (24 characters at most) and id digits. */
const DIGITS_ROOM = 64;

const ascii = (text: string): Buffer => Buffer.from(text, 'latin1');
const ID_START = ascii('"req-');
const QUOTE = 0x22;
const DOT = 0x2e;
const ZERO = 0x30;
const MS_PART = ascii(',"ms":');
const KEY_PART = ascii(',"keyId":');
const NULL = ascii('null');
const TAIL = ascii(',"msg":"request"}\n');
const BASE36 = ascii('0123456789abcdefghijklmnopqrstuvwxyz');
/** The constant bytes of every line but its head and route part: the id's, the labels, the end. */
const CONSTANT_ROOM = ID_START.length + 2 + MS_PART.length + KEY_PART.length + TAIL.length;

/** The bytes of `,"method":…,"route":…,"status":` for one route (route null: no route took it). */
export function routePart(method: string, route: string | null): Buffer {
  return Buffer.from(
    `,"method":${JSON.stringify(method)},"route":${JSON.stringify(route)},"status":`,
    'utf8',
  );
}

/** Digits of `n` in `base` (a non-negative integer, at most 2^53) into `buf` at `at`; the end. */
function writeDigits(buf: Buffer, at: number, n: number, base: number): number {
  let length = 1;
  for (let rest = Math.floor(n / base); rest > 0; rest = Math.floor(rest / base)) length++;
  let end = at + length;
  for (let rest = n; end > at; rest = Math.floor(rest / base)) {
    buf[--end] = BASE36[rest % base]!;
  }
  return at + length;
}

/**
 * `String(Math.round(ms * 100) / 100)` as bytes: the whole part's digits, then the hundredths as
 * JavaScript prints them ('', '.1', '.01', '.25'); anything out of range through String.
 */
export function writeHundredths(buf: Buffer, at: number, ms: number): number {
  const total = Math.round(ms * 100);
  if (!(total >= 0 && total <= 0x7fffffff))
    return at + buf.write(String(total / 100), at, 'latin1');
  const whole = Math.floor(total / 100);
  const fraction = total - whole * 100;
  let end = writeDigits(buf, at, whole, 10);
  if (fraction === 0) return end;
  buf[end++] = DOT;
  const tens = Math.floor(fraction / 10);
  buf[end++] = ZERO + tens;
  if (fraction !== tens * 10) buf[end++] = ZERO + (fraction - tens * 10);
  return end;
}

/**
 * The line encoder of one batch. Every line is `start`, the time (epoch ms), `afterTime`, then
 * the request's own fields: `{"level":30,"time":` and `,"pid":…,"hostname":…,"reqId":`.
 */
export function lineEncoder(batch: LineBatch, start: string, afterTime: string): EncodeLine {
  let lastTime = Number.NaN;
  let head = Buffer.alloc(0);
  const keyIds = new Map<string, Buffer>();
  const keyIdBytes = (keyId: string): Buffer => {
    let bytes = keyIds.get(keyId);
    if (bytes === undefined) {
      if (keyIds.size >= MAX_KEY_IDS) keyIds.clear();
      bytes = Buffer.from(JSON.stringify(keyId), 'utf8');
      keyIds.set(keyId, bytes);
    }
    return bytes;
  };
  return (fixed, reqId, status, ms, keyId) => {
    const time = Date.now();
    if (time !== lastTime) {
      lastTime = time;
      head = Buffer.from(`${start}${time}${afterTime}`, 'utf8');
    }
    const key = keyId === null ? NULL : keyIdBytes(keyId);
    const idText =
      typeof reqId === 'number' ? null : PLAIN_ID.test(reqId) ? reqId : JSON.stringify(reqId);
    const idRoom = idText === null ? 0 : idText.length * 3;
    const buf = batch.reserve(
      head.length + fixed.length + key.length + idRoom + CONSTANT_ROOM + DIGITS_ROOM,
    );
    let at = batch.offset();
    buf.set(head, at);
    at += head.length;
    if (idText === null) {
      buf.set(ID_START, at);
      at = writeDigits(buf, at + ID_START.length, reqId as number, 36);
      buf[at++] = QUOTE;
    } else if (idText === reqId) {
      buf[at++] = QUOTE;
      at += buf.write(idText, at, 'latin1');
      buf[at++] = QUOTE;
    } else {
      at += buf.write(idText, at, 'utf8');
    }
    buf.set(fixed, at);
    at = writeDigits(buf, at + fixed.length, status, 10);
    buf.set(MS_PART, at);
    at = writeHundredths(buf, at + MS_PART.length, ms);
    buf.set(KEY_PART, at);
    at += KEY_PART.length;
    buf.set(key, at);
    at += key.length;
    buf.set(TAIL, at);
    batch.commit(at + TAIL.length);
  };
}
