import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import { DEFAULT_CACHE_KIB } from '../../src/store/sqlite/dialect.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { THREAD_CACHE_KIB, openThreadStores } from '../../src/thread-stores.ts';

const cacheSize = async (store: Store): Promise<number> => {
  const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(store.db);
  return rows[0]!.cache_size;
};

test("a SQLite connection caches as many KiB of pages as it is opened with, a worker thread's a few MiB", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-cache-'));
  const url = `sqlite:${path.join(dir, 'gamedata.sqlite')}`;
  const serving = await openStore(url);
  const config = loadConfig({ DATA_DIR: dir, DATABASE_URL: url });
  // A worker thread's stores, as the job thread and serve's ingest workers open them.
  const thread = await openThreadStores(config);
  try {
    // Negative: a size in KiB rather than in pages.
    assert.equal(await cacheSize(serving), -DEFAULT_CACHE_KIB);
    assert.equal(await cacheSize(thread.store), -THREAD_CACHE_KIB);
    assert.ok(
      -(await cacheSize(thread.store)) <= -(await cacheSize(serving)) / 8,
      "a worker thread keeps an eighth of the serving thread's cache or less",
    );
  } finally {
    await thread.store.close();
    await serving.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("the job thread's connection keeps SQLite's temporary b-trees in files, the serving one in memory", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-temp-'));
  const url = `sqlite:${path.join(dir, 'gamedata.sqlite')}`;
  const serving = await openStore(url);
  const config = loadConfig({ DATA_DIR: dir, DATABASE_URL: url });
  const jobs = await openThreadStores(config, { tempFiles: true });
  const ingest = await openThreadStores(config);
  const tempStore = async (store: Store): Promise<number> => {
    const { rows } = await sql<{ temp_store: number }>`pragma temp_store`.execute(store.db);
    return rows[0]!.temp_store;
  };
  try {
    // SQLite's values: 1 is FILE, 2 is MEMORY.
    assert.equal(await tempStore(jobs.store), 1);
    assert.equal(await tempStore(ingest.store), 2);
    assert.equal(await tempStore(serving), 2);
  } finally {
    await jobs.store.close();
    await ingest.store.close();
    await serving.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
