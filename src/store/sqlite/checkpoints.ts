/**
 * WAL checkpoints off the serving thread. SQLite copies the write-ahead log into the database
 * file at the commit that takes the log past `wal_autocheckpoint` pages (dialect.ts): up to
 * 64 MB copied in that commit, 90–140 ms of the serving thread measured while matches were
 * posted, every 30–40 matches of a hundred players. A thread of its own checkpoints every
 * CHECKPOINT_INTERVAL_MS instead, so a commit that still reaches the limit finds the log copied
 * but for what the last interval wrote (and resets it at little cost).
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../module-worker.ts';

/** How often the thread checkpoints, ms: a checkpoint with nothing to copy costs microseconds. */
export const CHECKPOINT_INTERVAL_MS = 100;

/** Starts checkpointing `file` from a thread of its own; resolves the stop once it has ended. */
export function checkpointInBackground(
  file: string,
  intervalMs = CHECKPOINT_INTERVAL_MS,
): () => Promise<void> {
  const worker: Worker = startModuleWorker(import.meta.url, 'checkpoint-worker', {
    workerData: { file, intervalMs },
  });
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
