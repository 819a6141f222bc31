/**
 * Worker threads on one of the project's own modules, however the project runs: the built
 * `<name>.js` beside the caller, or under tsx (development, tests, the bench) `<name>.ts`,
 * loaded through tsx's loader registered in the thread first — Node 20 threads do not inherit
 * the loader of the thread that starts them.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a thread running the module `name` that sits beside the module at `callerUrl` (its
 * `import.meta.url`). `beforeLoad`: plain JavaScript the thread runs before tsx loads anything,
 * under tsx only (a built module can do the same as its first line).
 */
export function startModuleWorker(
  callerUrl: string,
  name: string,
  options: WorkerOptions = {},
  beforeLoad = '',
): Worker {
  const extension = path.extname(fileURLToPath(callerUrl));
  const entry = new URL(`./${name}${extension}`, callerUrl);
  if (extension !== '.ts') return new Worker(entry, options);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const bootstrap = `${beforeLoad}\nimport(${tsx}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/**
 * Plain JavaScript (a `beforeLoad` of startModuleWorker) that lowers the thread it runs in to
 * the niceness `expression` gives there (Linux; nothing elsewhere, nor for 0): run before tsx,
 * whose loader compiles the thread's modules in a thread of its own that inherits the niceness
 * of the thread that starts it. A built module lowers itself as its first line instead
 * (src/jobs/job-priority.ts).
 */
export function lowerThreadFirst(expression: string): string {
  return `{
  const os = require('node:os');
  const nice = ${expression};
  try {
    const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    if (nice > 0 && os.getPriority(tid) < nice) os.setPriority(tid, nice);
  } catch {}
}`;
}

/** lowerThreadFirst for a thread whose `workerData.nice` holds its niceness. */
export const LOWER_TO_WORKER_DATA_NICE = lowerThreadFirst(
  "require('node:worker_threads').workerData.nice",
);
