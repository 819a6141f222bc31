/**
 * Runs jobs in a worker thread (src/jobs/job-thread.ts) with its own database connection, so
 * that no job ever stalls serving: on SQLite every statement blocks the thread that runs it, and
 * a leaderboard rebuild or a purge at a million players takes seconds. An in-memory SQLite store
 * cannot be shared with another thread; its jobs run in the caller's thread, as before.
 */
import type { Worker } from 'node:worker_threads';
import type { Config } from '../config.ts';
import type { ChangeFeed } from '../store/change-feed.ts';
import type { Job, JobDeps } from './scheduler.ts';
import { lowerThreadFirst, startModuleWorker } from '../module-worker.ts';

/** Runs a job's work (without its lease, which the caller holds) and returns its summary. */
export interface JobRunner {
  run(job: Job, deps: JobDeps, options: { rebuild: boolean }): Promise<string>;
  /** Ends the thread, if any; a job still running in it is abandoned. */
  close(): Promise<void>;
}

/** A run asked of the thread; the clock offset carries the caller's clock (a fixed `--now`). */
export interface JobThreadRequest {
  id: number;
  name: string;
  rebuild: boolean;
  clockOffsetMs: number;
}

export type JobThreadReply = { id: number; summary: string } | { id: number; error: string };

/** Lowers the job thread to JOB_NICE before tsx compiles the job's modules (see lowerThreadFirst). */
const LOWER_BEFORE_TSX = lowerThreadFirst(
  "require('node:worker_threads').workerData.config.jobNice",
);

/** Runs jobs where the caller is: what tests with an in-memory store and a fixed clock use. */
export const inProcessRunner: JobRunner = {
  run: (job, deps, options) => job.run(deps, options),
  close: async () => {},
};

/** True when the store can be opened a second time from another thread (not `:memory:`). */
export const canRunInThread = (config: Readonly<Config>): boolean =>
  !config.databaseUrl.endsWith(':memory:');

/**
 * The job thread's young generation, MB (V8's default is several times larger): a leaderboard
 * rebuild at a million players took the serving process to 300–302 MB with the default, 287 MB
 * with this, in as long (6.5 s).
 */
const JOB_YOUNG_GENERATION_MB = 12;

/**
 * A runner whose jobs run in one worker thread, started at once: its start (a Node thread's
 * bootstrap runs at the serving priority until the thread's first line lowers it) is paid when the
 * runner is made, as the service starts, never while it serves. The idle thread does not keep
 * the process alive. Runs are answered in the order they end; the thread keeps its connection
 * between runs.
 */
export function threadRunner(config: Readonly<Config>): JobRunner {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, { resolve(summary: string): void; reject(e: Error): void }>();

  const start = (): Worker => {
    // Lowered before tsx compiles the job's modules; job-thread.ts lowers itself once loaded.
    const started = startModuleWorker(
      import.meta.url,
      'job-thread',
      {
        workerData: { config },
        resourceLimits: { maxYoungGenerationSizeMb: JOB_YOUNG_GENERATION_MB },
      },
      LOWER_BEFORE_TSX,
    );
    started.on('message', (reply: JobThreadReply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      // An idle thread does not keep the process alive; one with a run under way does.
      if (pending.size === 0) started.unref();
      if ('summary' in reply) waiting?.resolve(reply.summary);
      else waiting?.reject(new Error(reply.error));
    });
    const failAll = (error: Error): void => {
      worker = null;
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    };
    started.on('error', failAll);
    started.on('exit', (code) => failAll(new Error(`the job thread exited (code ${code})`)));
    started.unref();
    return started;
  };
  worker = start();

  return {
    run(job, deps, options) {
      worker ??= start();
      const id = nextId++;
      const request: JobThreadRequest = {
        id,
        name: job.name,
        rebuild: options.rebuild,
        clockOffsetMs: deps.clock.now() - Date.now(),
      };
      return new Promise<string>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker!.ref();
        worker!.postMessage(request);
      });
    },
    async close() {
      const running = worker;
      worker = null;
      await running?.terminate();
    },
  };
}

/**
 * `runner`, with the change feed read after each run: what a job committed from another thread
 * is announced in the database only, so the serving process learns of it when its feed polls.
 */
export function pollingAfterRuns(runner: JobRunner, feed: Pick<ChangeFeed, 'poll'>): JobRunner {
  return {
    async run(job, deps, options) {
      try {
        return await runner.run(job, deps, options);
      } finally {
        await feed.poll().catch(() => undefined);
      }
    },
    close: () => runner.close(),
  };
}
