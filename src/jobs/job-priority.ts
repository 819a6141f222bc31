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
 * Lowers every thread of this process to niceness `nice` (0–19; 0 leaves them): what a process
 * that exists only to run a job (`gamedata jobs run`) calls before it loads the job, so its
 * module loading, V8's helper threads and the job all take only the CPU others leave idle.
 * Threads started afterwards inherit it. Returns how many threads were lowered, or null where
 * this is not supported.
 */
export function lowerProcessPriority(nice: number): number | null {
  if (nice <= 0 || currentThreadId() === null) return null;
  let lowered = 0;
  for (const task of fs.readdirSync('/proc/self/task')) {
    // A thread may end between the listing and the call: it needs no priority then.
    if (lowerTo(Number(task), nice)) lowered++;
  }
  return lowered;
}
