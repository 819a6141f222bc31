/**
 * A worker thread for test/ingest/thread-gzip.test.ts: gzips the bytes it is sent with gzipHere
 * and answers with the result and whether it was ready before this thread's next turn.
 */
import { parentPort } from 'node:worker_threads';
import { gzipReadiness } from './thread-gzip-readiness.ts';

parentPort!.once('message', (bytes: Uint8Array) => {
  void gzipReadiness(Buffer.from(bytes)).then((answer) => parentPort!.postMessage(answer));
});
