/**
 * A small in-process scheduler for the derived-data jobs. Each job is a plain function of its
 * dependencies; the scheduler only decides when it is due and holds a database lease while it
 * runs, so with several instances on one database exactly one runs a given job at a time.
 */
import type { Config } from '../config.ts';
import type { Clock } from '../clock.ts';
import type { Store } from '../store/store.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import { acquireJobLease, jobState, releaseJobLease } from '../store/job-locks.ts';

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
  /** Does the work; returns a one-line summary for the log. */
  run(deps: JobDeps): Promise<string>;
}

/** A lease outlives any sane run; it only matters when a holder dies mid-run. */
const LEASE_MS = 15 * 60_000;

export type JobRunResult =
  { ran: true; summary: string } | { ran: false; reason: 'locked' } | { ran: true; error: string };

/** Runs a job now if no other instance holds its lease (also what `gamedata jobs run` does). */
export async function runJobOnce(deps: JobDeps, job: Job, owner: string): Promise<JobRunResult> {
  const { store, clock } = deps;
  const acquired = await acquireJobLease(store.db, {
    name: job.name,
    owner,
    now: clock.now(),
    leaseMs: LEASE_MS,
  });
  if (!acquired) return { ran: false, reason: 'locked' };
  try {
    const summary = await job.run(deps);
    await releaseJobLease(store.db, { name: job.name, owner, now: clock.now(), error: null });
    return { ran: true, summary };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await releaseJobLease(store.db, { name: job.name, owner, now: clock.now(), error: message });
    return { ran: true, error: message };
  }
}

/** True when the job has never run, its interval has passed since its last start, or its output is missing. */
export async function isJobDue(deps: JobDeps, job: Job): Promise<boolean> {
  const state = await jobState(deps.store.db, job.name);
  if (state?.lastStartedAt == null) return true;
  if (deps.clock.now() - state.lastStartedAt >= job.intervalMs(deps.config)) return true;
  return job.outputMissing(deps);
}

export interface Scheduler {
  /** Runs every due job once, one after another (what the timer does each tick). */
  tick(): Promise<void>;
  /** Stops the timer and waits for a tick in progress. */
  stop(): Promise<void>;
}

/**
 * Starts checking the jobs every `tickMs` (and once at once, so a fresh start fills missing
 * leaderboards and samples immediately). Ticks never overlap.
 */
export function startScheduler(
  deps: JobDeps,
  jobs: readonly Job[],
  options: { owner: string; tickMs: number; log: JobLog; autostart?: boolean },
): Scheduler {
  let running: Promise<void> | null = null;
  let stopped = false;

  async function runDueJobs(): Promise<void> {
    for (const job of jobs) {
      if (stopped) return;
      try {
        if (!(await isJobDue(deps, job))) continue;
        const result = await runJobOnce(deps, job, options.owner);
        if ('summary' in result) options.log.info(`job ${job.name}: ${result.summary}`);
        else if ('error' in result) options.log.error(`job ${job.name} failed: ${result.error}`);
      } catch (error) {
        options.log.error(
          `job ${job.name} could not be scheduled: ${error instanceof Error ? error.message : String(error)}`,
        );
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
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
