/**
 * Every process the bench starts (servers, wrk, CLI runs) goes through one registry, so that
 * however the bench ends — done, failed, interrupted, out of time — none is left running. Each
 * child may be pinned to a set of CPUs with `taskset` (which execs the command: the pid is the
 * command's own, so its /proc entry is the one measured).
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { execFileSync } from 'node:child_process';

export interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** A `taskset -c` CPU list (`"1"`, `"0-2"`); null: wherever the kernel puts it. */
  cpus: string | null;
  stdio?: StdioOptions;
}

export interface ChildRegistry {
  spawn(command: string, args: string[], options: SpawnOptions): ChildProcess;
  /** SIGTERM to every child still running (a CPU profile then gets written), SIGKILL after 3 s. */
  stopAll(): Promise<void>;
  /** SIGKILL to every child at once: the last resort on exit. */
  killAll(): void;
}

export function createChildRegistry(): ChildRegistry {
  const children = new Set<ChildProcess>();
  return {
    spawn(command, args, options) {
      const [file, argv] =
        options.cpus === null
          ? [command, args]
          : ['taskset', ['-c', options.cpus, command, ...args]];
      const child = spawn(file, argv, {
        env: options.env ?? process.env,
        cwd: options.cwd,
        stdio: options.stdio ?? ['ignore', 'pipe', 'inherit'],
      });
      children.add(child);
      child.once('exit', () => children.delete(child));
      child.once('error', () => children.delete(child));
      return child;
    },
    async stopAll() {
      await Promise.all([...children].map((child) => stopChild(child)));
    },
    killAll() {
      for (const child of children) child.kill('SIGKILL');
    },
  };
}

/** Ends one child: SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
export function stopChild(child: ChildProcess, graceMs = 3_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Resolves with the exit code once a child ends (rejects if it could not start). */
export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', reject);
  });
}

/** Where the servers and the load generator run; null lists: unpinned. */
export interface Pinning {
  servers: string | null;
  load: string | null;
  /**
   * Every CPU, for a child that may use them all: one started without a list would inherit the
   * bench's own pinning (on `load`). Null when nothing is pinned.
   */
  every: string | null;
  /** One line for the report. */
  description: string;
}

/**
 * With more than one core, the servers (the service and the bare server alike) get the last
 * core and the load generator the others, so the two never take turns on one core and a slower
 * server cannot be hidden by a saturated client. With one core, or without `taskset`, nothing
 * is pinned and the report says so.
 */
export function planPinning(cores: number, enabled: boolean, tasksetFound: boolean): Pinning {
  const none = { servers: null, load: null, every: null };
  if (!enabled) return { ...none, description: 'not pinned (--no-pin)' };
  if (!tasksetFound) return { ...none, description: 'not pinned (no taskset)' };
  if (cores < 2) return { ...none, description: 'not pinned (one core)' };
  const last = cores - 1;
  const load = last === 1 ? '0' : `0-${last - 1}`;
  return {
    servers: String(last),
    load,
    every: `0-${last}`,
    description: `servers on CPU ${last}; wrk and the bench on CPU ${load}`,
  };
}

/** True when `taskset` (util-linux) can be run. */
export function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Moves every thread of this process onto `cpus` (the bench itself runs beside wrk). */
export function pinSelf(cpus: string): void {
  execFileSync('taskset', ['-a', '-cp', cpus, String(process.pid)], { stdio: 'ignore' });
}
