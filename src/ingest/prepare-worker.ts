/**
 * A worker thread of the prepare pool: runs the tasks it is sent (prepare-tasks.ts) and answers
 * each with its outcome, under the task's number, its buffers moved rather than copied.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../jobs/job-priority.ts';
import type { PrepareTask } from './prepare-match.ts';
import { taskRunner, type FileTask, type WorkerSetup } from './prepare-tasks.ts';

const setup = workerData as WorkerSetup;
// Under tsx its bootstrap lowered the thread already. Built, this module's own imports are
// evaluated before its first line runs; they hold none of the ingest code, which is loaded at
// the first match, once the thread is lowered.
lowerThreadPriority(setup.nice);

const runner = taskRunner(setup);
parentPort!.once('close', () => void runner.close());
parentPort!.on('message', ({ id, task }: { id: number; task: PrepareTask | FileTask }) => {
  void runner.run(task).then(({ outcome, owned, release }) => {
    parentPort!.postMessage({ id, outcome }, owned);
    release?.();
  });
});
