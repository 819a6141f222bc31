/**
 * gzip where ingest runs. On the main thread the work goes to libuv's pool, so that the thread
 * keeps serving meanwhile. A worker thread (a prepare worker, the job thread) has nothing else
 * to do while it waits, so it compresses in place: handing the bytes to the pool would only add
 * a thread switch and put the compression on a pool thread at the process's own priority, when
 * the worker runs lowered (INGEST_NICE) so that a posted match takes only the CPU serving leaves.
 */
import { promisify } from 'node:util';
import { isMainThread } from 'node:worker_threads';
import zlib from 'node:zlib';

const gzipOnPool = promisify(zlib.gzip);

/** zlib.gzip of `bytes` (the same bytes whichever thread makes them). */
export async function gzipHere(bytes: Buffer, options: zlib.ZlibOptions = {}): Promise<Buffer> {
  return isMainThread ? gzipOnPool(bytes, options) : zlib.gzipSync(bytes, options);
}
