/**
 * The thread of background checkpoints (checkpoints.ts): its own connection to the database
 * file, running a passive checkpoint every `intervalMs` until told to stop. A passive
 * checkpoint takes no lock that readers or writers wait for, and gives up where it would have to
 * wait; its errors (the file busy with another checkpoint, say) are left to the next round.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { lowerThreadPriority } from '../../jobs/job-priority.ts';

const { file, intervalMs, nice } = workerData as { file: string; intervalMs: number; nice: number };
// Under tsx its bootstrap lowered the thread already; built, its first line does.
lowerThreadPriority(nice);
const database = new BetterSqlite3(file, { fileMustExist: true });
database.pragma('busy_timeout = 0');

const checkpoint = (): void => {
  try {
    database.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy, or the file is going away: the next round tries again.
  }
};
const timer = setInterval(checkpoint, intervalMs);
parentPort!.once('message', () => {
  clearInterval(timer);
  database.close();
  parentPort!.close();
});
