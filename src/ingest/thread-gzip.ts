/**
 * gzip where ingest runs. On the main thread the work goes to libuv's pool, so that the thread
 * keeps serving meanwhile. A worker thread (a prepare worker, the job thread) has nothing else
 * to do while it waits, so it compresses in place: handing the bytes to the pool would only add
 * a thread switch and put the compression on a pool thread at the process's own priority, when
 * the worker runs lowered (INGEST_NICE) so that a posted match takes only the CPU serving leaves.
 * A worker process (prepare-child.ts) says so at its start: its main thread serves nothing.
 */
import { promisify } from 'node:util';
import { isMainThread } from 'node:worker_threads';
import zlib from 'node:zlib';

const gzipOnPool = promisify(zlib.gzip);

let inPlace = !isMainThread;

/** From now on this thread compresses in place: it has nothing else to do while it waits. */
export function gzipInPlace(): void {
  inPlace = true;
}

/** zlib.gzip of `bytes` (the same bytes whichever thread makes them). */
export async function gzipHere(bytes: Buffer, options: zlib.ZlibOptions = {}): Promise<Buffer> {
  return inPlace ? zlib.gzipSync(bytes, options) : gzipOnPool(bytes, options);
}
