/**
 * A content-type parser that receives a request body into one buffer as its chunks arrive.
 *
 * Fastify's own `parseAs: 'buffer'` keeps the chunks and joins them at the end: one
 * `Buffer.concat` of the whole body in a single turn of the event loop — 5–10 ms of the serving
 * thread for a posted match of 2.5 MB, 15–23 ms for 20 MB, while cached answers wait. A body
 * whose size the client gave (Content-Length, no content coding) is copied here chunk by chunk
 * into a buffer of that size, which owns its memory, so it can be handed to a worker thread as
 * it is. A body decompressed on its way in (its size unknown) is joined at the end, as Fastify
 * does. Everything else is Fastify's: the same limit (`bodyLimit`, counted decompressed), the
 * same errors for a body too large or shorter or longer than announced, and a stream error's.
 * Bodies that a worker process gets a copy of can be received into buffers kept for the next
 * one instead (bodyReceiver): a fresh buffer's page faults are most of what receiving a posted
 * match costs the serving thread.
 */
import { errorCodes, type FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { ReusableBuffers } from '../ingest/reusable-buffers.ts';

type Done = (error: Error | null, body?: Buffer) => void;

/** The payload stream Fastify hands a parser; a decompressing one counts the bytes it read. */
type Payload = Readable & { receivedEncodedLength?: number };

/** Receives `payload` under the route's `bodyLimit` and calls `done` with the body's bytes. */
export function receiveBody(request: FastifyRequest, payload: Payload, done: Done): void {
  receiveInto(null, request, payload, done);
}

/**
 * receiveBody, with a body of known size received into one of `buffers` (reusable-buffers.ts)
 * rather than into a buffer of its own when `reuse(request)` says so: for bodies whose bytes
 * the route gives back once done with them.
 */
export function bodyReceiver(
  buffers: ReusableBuffers,
  reuse: (request: FastifyRequest) => boolean,
): (request: FastifyRequest, payload: Payload, done: Done) => void {
  return (request, payload, done) =>
    receiveInto(reuse(request) ? buffers : null, request, payload, done);
}

function receiveInto(
  buffers: ReusableBuffers | null,
  request: FastifyRequest,
  payload: Payload,
  done: Done,
): void {
  const limit = request.routeOptions.bodyLimit ?? Infinity;
  const declared = Number(request.headers['content-length']);
  if (declared > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  // Decompressed on the way (another stream than the socket's): the size is not known ahead.
  const known = Number.isInteger(declared) && payload === (request.raw as Readable);
  const body = !known ? null : (buffers?.take(declared) ?? Buffer.allocUnsafeSlow(declared));
  const chunks: Buffer[] = [];
  let received = 0;

  const finish = (error: Error | null, result?: Buffer): void => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    done(error, result);
  };
  function onData(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const end = received + bytes.length;
    if (end > limit || (payload.receivedEncodedLength ?? 0) > limit) {
      finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    if (body === null) chunks.push(bytes);
    else if (end <= body.length) bytes.copy(body, received);
    received = end;
  }
  function onEnd(): void {
    const counted = payload.receivedEncodedLength || received;
    if (!Number.isNaN(declared) && counted !== declared) {
      finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      return;
    }
    finish(null, body ?? Buffer.concat(chunks, received));
  }
  function onError(error: Error & { statusCode?: number }): void {
    if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
    finish(error);
  }
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}
