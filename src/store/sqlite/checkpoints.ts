/**
 * WAL checkpoints off the serving thread. SQLite copies the write-ahead log into the database
 * file at the commit that takes the log past `wal_autocheckpoint` pages (dialect.ts): up to
 * 64 MB copied in that commit, 90–140 ms of the serving thread measured while matches were
 * posted, every 30–40 matches of a hundred players. A thread of its own checkpoints every
 * CHECKPOINT_INTERVAL_MS instead, so a commit that still reaches the limit finds the log copied
 * but for what the last interval wrote (and resets it at little cost).
 *
 * The thread runs lowered (`nice`, INGEST_NICE in `serve`): what it copies is what ingest and
 * the jobs wrote, and at the process's own priority it took 15–20 ms of CPU a posted match
 * beside serving (4 matches posted to a server on one core under load, its threads sampled by
 * `perf`: 63 and 83 ms in two runs).
 * Starved by a saturated core, it only falls behind: the log then grows to
 * `wal_autocheckpoint` pages, and the writer whose commit takes it there — an ingest worker or
 * the job thread, lowered too — copies it (the serving thread's connection never does,
 * dialect.ts).
 */
import type { Worker } from 'node:worker_threads';
import { LOWER_TO_WORKER_DATA_NICE, startModuleWorker } from '../../module-worker.ts';

/**
 * How often the thread checkpoints, ms. A match of a hundred players writes about 170 pages,
 * many of them the same index pages as the match before; a checkpoint copies each page once
 * however often it was written since the last, and syncs the file once. Every 100 ms (two or
 * three posted matches) this thread took 1.0–1.25 ms of CPU a posted match, and the server's
 * threads other than the serving one 1.8–2.3 ms; every second, this thread less than 0.25 and
 * those 1.3–1.5. The log then holds up to a second of writes: about 4,000 pages at the pace one
 * core ingests, a quarter of `wal_autocheckpoint`. (40 matches posted after 40 others to a
 * server on one core, each thread's CPU from procfs until 2.5 s after the last, rounds in
 * turns, 2026-12-07.)
 */
export const CHECKPOINT_INTERVAL_MS = 1_000;

/** How the checkpoint thread runs: its interval (ms) and niceness (0–19; 0: as its creator). */
export interface CheckpointOptions {
  intervalMs?: number;
  nice?: number;
}

/**
 * Starts checkpointing `file` from a thread of its own, at niceness `nice`; resolves the stop
 * once it has ended.
 */
export function checkpointInBackground(
  file: string,
  { intervalMs = CHECKPOINT_INTERVAL_MS, nice = 0 }: CheckpointOptions = {},
): () => Promise<void> {
  const worker: Worker = startModuleWorker(
    import.meta.url,
    'checkpoint-worker',
    { workerData: { file, intervalMs, nice } },
    LOWER_TO_WORKER_DATA_NICE,
  );
  // Never what keeps the process alive.
  worker.unref();
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // A thread that failed to start (the file removed meanwhile) leaves commits to checkpoint.
  worker.on('error', () => undefined);
  return async () => {
    // Held until it has closed its connection.
    worker.ref();
    worker.postMessage('stop');
    await ended;
  };
}
