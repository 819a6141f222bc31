/**
 * What a demo load runs with in tests: the store under test, a blob directory of its own in the
 * system's temporary directory, the config of that directory and a clock fixed at `now`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { directoryBlobStore } from '../../src/blobs/directory-blob-store.ts';
import { fixedClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import type { BlobStore } from '../../src/blobs/blob-store.ts';
import type { Config } from '../../src/config.ts';
import type { Store } from '../../src/store/store.ts';

export interface DemoTestDeps {
  store: Store;
  blobs: BlobStore;
  config: Readonly<Config>;
  clock: ReturnType<typeof fixedClock>;
}

/** Runs `use` with demo dependencies on `store`; then closes the store and removes the blobs. */
export async function withDemoDeps<T>(
  store: Store,
  now: number | string,
  use: (deps: DemoTestDeps, blobDir: string) => Promise<T>,
): Promise<T> {
  const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-demo-'));
  try {
    const deps = {
      store,
      blobs: directoryBlobStore(blobDir),
      config: loadConfig({ DATA_DIR: blobDir }),
      clock: fixedClock(now),
    };
    return await use(deps, blobDir);
  } finally {
    await store.close();
    fs.rmSync(blobDir, { recursive: true, force: true });
  }
}
