import { gzipHere } from '../../src/ingest/thread-gzip.ts';

/**
 * gzipHere of `bytes`, and whether its promise had settled once the microtasks queued with the
 * call had run — true when the thread compressed in place, false when it waited for libuv's pool
 * (whose answer comes in a later turn of the event loop).
 */
export async function gzipReadiness(
  bytes: Buffer,
): Promise<{ gzip: Buffer; readyAtOnce: boolean }> {
  let settled = false;
  const gzip = gzipHere(bytes).then((packed) => {
    settled = true;
    return packed;
  });
  for (let i = 0; i < 3; i++) await Promise.resolve();
  const readyAtOnce = settled;
  return { gzip: await gzip, readyAtOnce };
}
