import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { startModuleWorker } from '../../src/module-worker.ts';
import { gzipReadiness } from '../helpers/thread-gzip-readiness.ts';
import { gzipInPlace } from '../../src/ingest/thread-gzip.ts';

const plain = Buffer.from(
  JSON.stringify(
    Array.from({ length: 2000 }, (_, i) => ({ _T: 'LogPlayerPosition', _D: `t${i}`, x: i * 1.5 })),
  ),
);

test('gzipHere leaves the main thread to the pool and compresses in place on a worker thread, the same bytes', async () => {
  const onMain = await gzipReadiness(plain);
  assert.equal(onMain.readyAtOnce, false, 'the main thread does not compress in place');

  const worker = startModuleWorker(
    new URL('../helpers/thread-gzip-worker.ts', import.meta.url).href,
    'thread-gzip-worker',
  );
  try {
    worker.postMessage(plain);
    const [answer] = (await once(worker, 'message')) as [
      { gzip: Uint8Array; readyAtOnce: boolean },
    ];
    assert.equal(answer.readyAtOnce, true, 'a worker thread compresses before its next turn');
    assert.deepEqual(Buffer.from(answer.gzip), onMain.gzip);
    assert.deepEqual(zlib.gunzipSync(answer.gzip), plain);
  } finally {
    await worker.terminate();
  }
});

// Last in this file: it changes how this process's main thread compresses from now on.
test('a main thread that serves nothing (a worker process) compresses in place once told', async () => {
  gzipInPlace();
  const here = await gzipReadiness(plain);
  assert.equal(here.readyAtOnce, true, 'compressed before the next turn');
  assert.deepEqual(zlib.gunzipSync(here.gzip), plain);
});
