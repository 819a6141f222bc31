/**
 * Jobs run at a low scheduling priority, so that they take only the CPU serving leaves idle: a
 * rebuild that competes with requests at equal priority doubles their latency on a busy core.
 *
 * On Linux a thread is a task with a niceness of its own, and `setpriority` on a thread id
 * changes that thread alone — the serving thread of the same process keeps its priority.
 * Raising a priority again needs privileges, so a thread lowered stays lowered until it ends.
 * Elsewhere (no `/proc`) nothing is changed and the functions say so.
 */
import fs from 'node:fs';
import os from 'node:os';

/** Where a niceness was applied: the thread's id (its Linux task id) and its niceness now. */
export interface LoweredPriority {
  threadId: number;
  nice: number;
}

/** The calling thread's id (its Linux task id), or null where `/proc/thread-self` does not exist. */
export function currentThreadId(): number | null {
  try {
    // "<pid>/task/<tid>"
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** Sets one thread's niceness unless it is already that low or lower; false when not allowed. */
function lowerTo(tid: number, nice: number): boolean {
  try {
    if (os.getPriority(tid) < nice) os.setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}

/**
 * Lowers the calling thread — and only it — to niceness `nice` (0–19; 0 leaves it as it is).
 * Threads it starts afterwards inherit the niceness. Returns null where this is not supported.
 */
export function lowerThreadPriority(nice: number): LoweredPriority | null {
  if (nice <= 0) return null;
  const tid = currentThreadId();
  if (tid === null || !lowerTo(tid, nice)) return null;
  return { threadId: tid, nice };
}

/**
 * Lowers every thread of this process, and of the processes it started, to niceness `nice`
 * (0–19; 0 leaves them): what a process that exists only to run a job (`gamedata jobs run`)
 * calls before it loads the job, so its module loading, V8's helper threads, a compiler service
 * its loader started (esbuild under tsx) and the job all take only the CPU others leave idle.
 * Threads and processes started afterwards inherit it. Returns how many threads were lowered,
 * or null where this is not supported.
 */
export function lowerProcessPriority(nice: number): number | null {
  if (nice <= 0 || currentThreadId() === null) return null;
  return lowerTasksOf('self', nice);
}

/** Lowers the threads of process `pid` and of its descendants; returns how many. */
function lowerTasksOf(pid: number | 'self', nice: number): number {
  let lowered = 0;
  for (const task of threadsOf(pid)) {
    // A thread may end between the listing and the call: it needs no priority then.
    if (lowerTo(task, nice)) lowered++;
  }
  for (const child of childProcessesOf(pid)) lowered += lowerTasksOf(child, nice);
  return lowered;
}

/** The thread ids of process `pid` (empty once it has ended, or without procfs). */
function threadsOf(pid: number | 'self'): number[] {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [];
  }
}

/**
 * The processes that the threads of process `pid` started and that still run (or are not
 * reaped yet), by pid; empty when the kernel does not say (no procfs, the process ended).
 */
export function childProcessesOf(pid: number | 'self'): number[] {
  return threadsOf(pid).flatMap((task) => {
    try {
      const listed = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      return listed === '' ? [] : listed.split(' ').map(Number);
    } catch {
      return []; // the thread ended meanwhile
    }
  });
}

/** JOB_NICE's default, as src/config.ts declares it (a test holds the two equal). */
const DEFAULT_JOB_NICE = 19;

/**
 * The niceness the raw `JOB_NICE` value asks for, read before the config is: loading and
 * validating the config costs a process started for a job more CPU than the rest of its start,
 * and a process that lowers itself first pays all of that at the job's priority. Null when the
 * value is not a plain integer 0–19: loading the config then reports it.
 */
export function jobNiceOf(raw: string | undefined): number | null {
  // As loadConfig reads it: an empty variable is an unset one.
  if (raw === undefined || raw === '') return DEFAULT_JOB_NICE;
  if (!/^\d{1,2}$/.test(raw)) return null;
  const nice = Number(raw);
  return nice <= 19 ? nice : null;
}
