/**
 * A small in-process scheduler for the derived-data jobs. Each job is a plain function of its
 * dependencies; the scheduler only decides when it is due and holds a database lease while it
 * runs, so with several instances on one database exactly one runs a given job at a time.
 */
import type { Config } from '../config.ts';
import type { Clock } from '../clock.ts';
import type { Db, Store } from '../store/store.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import {
  acquireJobLease,
  jobState,
  releaseJobLease,
  requestJobRebuilds,
  takeRebuildRequest,
} from '../store/job-locks.ts';
import { writeWithoutBlocking } from '../store/sqlite/lock-wait.ts';
import { inProcessRunner, type JobRunner } from './job-thread-runner.ts';
import type { JobProgress } from './job-progress.ts';

export interface JobLog {
  info(message: string): void;
  error(message: string): void;
}

export interface JobDeps {
  store: Store;
  blobs: BlobStore;
  config: Readonly<Config>;
  clock: Clock;
}

export interface Job {
  name: string;
  /** Milliseconds between two runs, from the config. */
  intervalMs(config: Readonly<Config>): number;
  /** True when what the job produces is missing, so it runs at once whenever it last ran. */
  outputMissing(deps: JobDeps): Promise<boolean>;
  /**
   * Does the work; returns a one-line summary for the log. `rebuild` is true when a completed
   * load asked for it: output derived from part of that load must be redone, not just topped up.
   */
  run(deps: JobDeps, options?: { rebuild: boolean }): Promise<string>;
  /** True for jobs that derive their output from the stored matches (rebuilt after a load). */
  derivedFromMatches?: boolean;
}

/** A lease outlives any sane run; it only matters when a holder dies mid-run. */
const LEASE_MS = 15 * 60_000;

export type JobRunResult =
  { ran: true; summary: string } | { ran: false; reason: 'locked' } | { ran: true; error: string };

/**
 * Runs a job now if no other instance holds its lease (also what `gamedata jobs run` does). The
 * lease is taken and released here; the work itself runs where `runner` runs it (a worker
 * thread when serving, see src/jobs/job-thread-runner.ts). The lease's writes wait for a lock
 * held elsewhere (a job of another process, a crawl) without blocking this thread: when
 * serving, it is the thread that answers requests.
 */
export async function runJobOnce(
  deps: JobDeps,
  job: Job,
  owner: string,
  runner: JobRunner = inProcessRunner,
): Promise<JobRunResult> {
  const { store, clock } = deps;
  const write = <T>(statements: (db: Db) => Promise<T>): Promise<T> =>
    writeWithoutBlocking(store, statements);
  const acquired = await write((db) =>
    acquireJobLease(db, { name: job.name, owner, now: clock.now(), leaseMs: LEASE_MS }),
  );
  if (!acquired) return { ran: false, reason: 'locked' };
  let rebuild = false;
  try {
    rebuild = await write((db) => takeRebuildRequest(db, job.name));
    const summary = await runner.run(job, deps, { rebuild });
    const end = clock.now();
    await write((db) => releaseJobLease(db, { name: job.name, owner, now: end, error: null }));
    return { ran: true, summary };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (rebuild) await write((db) => requestJobRebuilds(db, [job.name]));
    const end = clock.now();
    await write((db) => releaseJobLease(db, { name: job.name, owner, now: end, error: message }));
    return { ran: true, error: message };
  }
}

/**
 * True when the job has never run, its interval has passed since its last start, a rebuild was
 * requested, or its output is missing.
 */
export async function isJobDue(deps: JobDeps, job: Job): Promise<boolean> {
  const state = await jobState(deps.store.db, job.name);
  if (state?.lastStartedAt == null || state.rebuildRequested) return true;
  if (deps.clock.now() - state.lastStartedAt >= job.intervalMs(deps.config)) return true;
  return job.outputMissing(deps);
}

/** How a run the scheduler started ended: `locked` when another instance held the lease. */
export type JobOutcome = 'succeeded' | 'failed' | 'locked';

/** Told about each run the scheduler starts (metrics); it times the run itself and must not throw. */
export interface JobObserver {
  /** A job is about to run; the function returned is called once, with how the run ended. */
  jobStarted(name: string): (outcome: JobOutcome) => void;
}

export interface Scheduler {
  /** Runs every due job once, one after another (what the timer does each tick). */
  tick(): Promise<void>;
  /**
   * Stops the timer and waits for a tick in progress, at most `withinMs` (default: as long as it
   * takes). A job still running then has its lease released at once, so another instance can
   * take the job without waiting for the lease to run out; the run itself is abandoned (the
   * process is about to exit, rolling back its open transaction). Returns that job's name.
   */
  stop(withinMs?: number): Promise<{ abandoned: string | null }>;
}

/**
 * Starts checking the jobs every `tickMs` (and once at once, so a fresh start fills missing
 * leaderboards and samples immediately). Ticks never overlap.
 */
export function startScheduler(
  deps: JobDeps,
  jobs: readonly Job[],
  options: {
    owner: string;
    tickMs: number;
    log: JobLog;
    autostart?: boolean;
    observer?: JobObserver;
    /** Where the jobs' work runs (default: in this thread). */
    runner?: JobRunner;
    /** Told when each run ends, so resources awaiting a job's first output stop answering 503. */
    progress?: JobProgress;
  },
): Scheduler {
  let running: Promise<void> | null = null;
  let current: string | null = null;
  let stopped = false;

  async function runDueJobs(): Promise<void> {
    for (const job of jobs) {
      if (stopped) return;
      let finished: ((outcome: JobOutcome) => void) | undefined;
      try {
        if (!(await isJobDue(deps, job))) continue;
        current = job.name;
        finished = options.observer?.jobStarted(job.name);
        const result = await runJobOnce(deps, job, options.owner, options.runner);
        finished?.('summary' in result ? 'succeeded' : 'error' in result ? 'failed' : 'locked');
        finished = undefined;
        if ('summary' in result) options.log.info(`job ${job.name}: ${result.summary}`);
        else if ('error' in result) options.log.error(`job ${job.name} failed: ${result.error}`);
      } catch (error) {
        finished?.('failed');
        options.log.error(
          `job ${job.name} could not be scheduled: ${error instanceof Error ? error.message : String(error)}`,
        );
      } finally {
        current = null;
        options.progress?.ended(job.name);
      }
    }
  }

  const tick = (): Promise<void> => {
    running ??= runDueJobs().finally(() => {
      running = null;
    });
    return running;
  };

  const timer = options.autostart === false ? null : setInterval(() => void tick(), options.tickMs);
  timer?.unref();
  if (options.autostart !== false) void tick();

  return {
    tick,
    async stop(withinMs = Infinity) {
      stopped = true;
      if (timer) clearInterval(timer);
      if (running === null) return { abandoned: null };
      let expired: NodeJS.Timeout | undefined;
      const deadline = new Promise<'expired'>((resolve) => {
        if (Number.isFinite(withinMs)) expired = setTimeout(() => resolve('expired'), withinMs);
      });
      const outcome = await Promise.race([running.then(() => 'done' as const), deadline]);
      clearTimeout(expired);
      const abandoned = outcome === 'expired' ? current : null;
      if (abandoned !== null) {
        // The abandoned run may hold the write lock: waited for without blocking the drain.
        const now = deps.clock.now();
        await writeWithoutBlocking(deps.store, (db) =>
          releaseJobLease(db, {
            name: abandoned,
            owner: options.owner,
            now,
            error: 'interrupted: the instance shut down',
          }),
        );
        options.log.error(`job ${abandoned} interrupted by shutdown; its lease is released`);
      }
      return { abandoned };
    },
  };
}
