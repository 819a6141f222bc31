/**
 * The worker thread jobs run in (src/jobs/job-thread-runner.ts starts it): a store and a blob
 * store of its own, opened from the same config, so a job's queries and computation — SQLite's
 * are synchronous — never hold up the event loop that serves requests. The thread first lowers
 * its own scheduling priority to `JOB_NICE` (src/jobs/job-priority.ts), so that on a busy core
 * it takes only the CPU serving leaves — its modules are loaded after that, so even loading
 * them (compiling them, under tsx) does not compete with requests. It runs one job per message
 * and answers with its summary or its error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../config.ts';
import { lowerThreadPriority } from './job-priority.ts';
import type { JobThreadReply, JobThreadRequest } from './job-thread-runner.ts';

const config = (workerData as { config: Config }).config;
const port = parentPort!;
lowerThreadPriority(config.jobNice);
const [{ openThreadStores }, { findJob }] = await Promise.all([
  import('../thread-stores.ts'),
  import('./index.ts'),
]);
// Its connection keeps a small page cache (THREAD_CACHE_KIB, src/thread-stores.ts), and SQLite's
// temporary b-trees in files rather than in the serving process's memory.
const opened = openThreadStores(config, { tempFiles: true });

// The thread starts with the service, before any run: a store that cannot be opened is reported
// by the runs that need it (each awaits `opened`), not as an unhandled rejection ending the thread.
opened.catch(() => undefined);

async function run(request: JobThreadRequest): Promise<JobThreadReply> {
  const job = findJob(request.name);
  if (job === undefined) return { id: request.id, error: `no job named '${request.name}'` };
  try {
    const { blobs, store } = await opened;
    // The thread's clock runs as the caller's did when it asked: offset from the system clock.
    const clock = { now: () => Date.now() + request.clockOffsetMs };
    const summary = await job.run({ store, blobs, config, clock }, { rebuild: request.rebuild });
    return { id: request.id, summary };
  } catch (error) {
    return { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
}

port.on('message', (request: JobThreadRequest) => {
  void run(request).then((reply) => port.postMessage(reply));
});
port.on('close', () => {
  void opened.then(({ store }) => store.close()).catch(() => undefined);
});
