import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/store.ts';
import { freePageBytes } from '../helpers/sqlite-free-pages.ts';

const MB = 1024 * 1024;

/** Writes `mb` megabytes in one transaction: about 256 pages a megabyte, all in the WAL. */
async function writeMegabytes(store: Store, mb: number): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    for (let i = 0; i < mb * 16; i++) {
      await sql`insert into filler (b) values (${Buffer.alloc(64 * 1024, i)})`.execute(trx);
    }
  });
}

/** How often the tests' checkpoint threads run (ms), shorter than the service's second. */
const INTERVAL_MS = 100;
/** Longer than that interval: a pass has run in it. */
const CHECKPOINT_SETTLE_MS = 250;

const sizeOf = (file: string): number => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/** Waits up to 5 s for `done`, polling. */
async function eventually(done: () => boolean): Promise<boolean> {
  for (let waited = 0; waited < 5_000 && !done(); waited += 25) await sleep(25);
  return done();
}

/**
 * A serving process leaves the WAL to a thread of its own: a commit on the serving thread that
 * took the log past `wal_autocheckpoint` copied up to 64 MB into the database file itself.
 */
test('SQLite checkpoints from a thread of their own: the log is copied and kept short', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-checkpoint-'));
  const file = path.join(dir, 'gamedata.sqlite');
  const store = await openStore(`sqlite:${file}`);
  try {
    await sql`create table filler (b blob)`.execute(store.db);
    const before = sizeOf(file);
    const free = await freePageBytes(store.db);
    await writeMegabytes(store, 2);
    // Nothing copies it yet: far below wal_autocheckpoint, the pages stay in the log.
    await sleep(300);
    assert.equal(sizeOf(file), before);
    assert.ok(sizeOf(`${file}-wal`) > 2 * MB);

    const stop = store.checkpointInBackground!({ intervalMs: INTERVAL_MS });
    try {
      const reached = () => sizeOf(file) > before + 2 * MB - free;
      assert.ok(await eventually(reached), 'the log reached the file');
      await sleep(CHECKPOINT_SETTLE_MS);
      let copied = sizeOf(file);
      // Copied, the log starts again at the next commit rather than growing on: 24 MB written
      // leave it at the size of a few commits.
      for (let round = 0; round < 12; round++) {
        await writeMegabytes(store, 2);
        // The round's 2 MB of blobs take at least that much of the file once copied (the first
        // copy, 2.44 MB, also carried the table's first pages: waited for whole, each round's
        // wait ran out at 5 s, a minute of the suite).
        const target = copied + 2 * MB;
        await eventually(() => sizeOf(file) >= target);
        // The copy is complete once it is synced and marked, shortly after its last page.
        await sleep(CHECKPOINT_SETTLE_MS);
        copied = sizeOf(file);
      }
      assert.ok(sizeOf(file) > before + 24 * MB);
      assert.ok(sizeOf(`${file}-wal`) < 8 * MB, `log of ${sizeOf(`${file}-wal`)} bytes`);
    } finally {
      await stop();
    }
    // Stopped: what is written now stays in the log again.
    const stopped = sizeOf(file);
    await writeMegabytes(store, 1);
    await sleep(300);
    assert.equal(sizeOf(file), stopped);
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * Another connection's transaction (a purge, a rebuild in the job thread) can take the log far
 * past the limit: the serving connection's next commit, however small, then copied all of it
 * in the serving thread (a 400 ms stall of every request at a million players). While the
 * thread checkpoints, the serving connection's commits never do; stopped, they do again.
 */
test('while the thread checkpoints, commits of the serving connection leave the log to it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-checkpoint-'));
  const store = await openStore(`sqlite:${path.join(dir, 'gamedata.sqlite')}`);
  const autocheckpoint = async (): Promise<number> =>
    (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(store.db))
      .rows[0]!.wal_autocheckpoint;
  try {
    const limit = await autocheckpoint();
    assert.ok(limit > 0, `commits checkpoint past ${limit} pages by themselves`);
    const stop = store.checkpointInBackground!();
    try {
      assert.equal(await autocheckpoint(), 0);
    } finally {
      await stop();
    }
    assert.equal(await autocheckpoint(), limit);
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an in-memory SQLite store has no other connection to checkpoint from', async () => {
  const store = await openStore(':memory:');
  try {
    assert.equal(store.checkpointInBackground, undefined);
  } finally {
    await store.close();
  }
});
