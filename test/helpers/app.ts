/**
 * Builds the real application for `inject` tests: a fresh store (per test database), the blob
 * store of the config (a temporary directory unless `env` names a bucket), a fixed clock and a
 * config from the same loader production uses.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { fixedClock } from '../../src/clock.ts';
import { openBlobStore } from '../../src/blobs/open-blob-store.ts';
import type { BlobStore } from '../../src/blobs/blob-store.ts';
import type { Store } from '../../src/store/store.ts';
import { createApiKey } from '../../src/store/api-keys.ts';
import { syncSeasons } from '../../src/store/seasons.ts';
import type { TestDatabase } from './stores.ts';
import type { PreparePool } from '../../src/ingest/prepare-pool.ts';

export const TEST_NOW = '2026-11-20T12:00:00Z';
export const TEST_BASE_URL = 'https://api.test.example';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  blobs: BlobStore;
  config: Readonly<Config>;
  clock: ReturnType<typeof fixedClock>;
  /** A valid API key (10,000 requests a minute). */
  apiKey: string;
  /** Headers of an authorized request. */
  auth: { authorization: string };
  close(): Promise<void>;
}

export async function createTestApp(
  database: TestDatabase,
  env: Record<string, string> = {},
  extra: Pick<AppDeps, 'jobProgress'> & {
    /** The pool preparing posted matches, made from the app's config; closed with the app. */
    ingestPool?: (config: Readonly<Config>) => PreparePool;
  } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: TEST_BASE_URL, ...env });
  const clock = fixedClock(TEST_NOW);
  const store = await database.open();
  await syncSeasons(store, clock.now());
  // The blob store the config names, as production opens it (a directory under DATA_DIR by default).
  const blobs = await openBlobStore(config);
  const { key } = await createApiKey(store.db, {
    name: 'test',
    ratePerMinute: 10_000,
    now: clock.now(),
  });
  const { ingestPool: poolOf, ...rest } = extra;
  const ingestPool = poolOf?.(config) ?? null;
  const app = await buildApp({ config, store, blobs, clock, logger: false, ingestPool, ...rest });
  return {
    app,
    store,
    blobs,
    config,
    clock,
    apiKey: key,
    auth: { authorization: `Bearer ${key}` },
    async close() {
      await app.close();
      await ingestPool?.close();
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
