/**
 * Which jobs' output a start is still waiting for. A start never waits for a job before it
 * listens: the resources a missing output would leave empty answer 503 with Retry-After (one
 * resource, not the service) until the job's first run ends, then what the job built.
 */

/** Seconds a client is told to wait for output being built (a leaderboard rebuild's order). */
export const AWAITED_RETRY_AFTER_SECONDS = 10;

export interface JobProgress {
  /** True from `expect(name)` until that job's run ends (whatever its outcome). */
  awaiting(name: string): boolean;
  /** The job's output is missing and the scheduler is about to build it. */
  expect(name: string): void;
  /** A run of the job ended: its output is there, or will not come from this instance soon. */
  ended(name: string): void;
  /** Called after every `ended` of a job that was awaited (so caches of "missing" are dropped). */
  onEnded(listener: (name: string) => void): void;
}

export function createJobProgress(): JobProgress {
  const awaited = new Set<string>();
  const listeners: Array<(name: string) => void> = [];
  return {
    awaiting: (name) => awaited.has(name),
    expect: (name) => void awaited.add(name),
    ended(name) {
      if (!awaited.delete(name)) return;
      for (const listener of listeners) listener(name);
    },
    onEnded: (listener) => void listeners.push(listener),
  };
}
