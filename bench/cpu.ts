/**
 * CPU accounting of the bench: how much processor time a process (or the finished children of
 * this one) used, read from procfs, and the per-request and per-second figures made from it.
 * Wall-clock throughput depends on who else runs on the machine; CPU time per unit of work much
 * less, which is why every figure of the bench comes with one.
 */
import fs from 'node:fs';
import { childProcessesOf } from '../src/jobs/job-priority.ts';

/**
 * Clock ticks per second of the times in `/proc/<pid>/stat` (USER_HZ). It is 100 on every Linux
 * ABI Node runs on, independent of the kernel's HZ, so one tick is 10 ms: a slice should last
 * seconds for the rounding to stay under 1%.
 */
export const USER_HZ = 100;

/** CPU time of a process in µs: its own threads (user + system), and its waited-for children. */
export interface ProcessCpu {
  selfMicros: number;
  childrenMicros: number;
}

/**
 * Parses the text of `/proc/<pid>/stat`. Fields are counted after the command name, which is in
 * parentheses and may itself hold spaces or parentheses (hence the last `)`): utime and stime
 * are fields 14 and 15, cutime and cstime (children that were waited for) 16 and 17.
 */
export function parseProcStat(text: string, userHz: number = USER_HZ): ProcessCpu {
  const close = text.lastIndexOf(')');
  if (close < 0) throw new Error('not a /proc/<pid>/stat line: no command name');
  // After ") " comes field 3 (state); utime is field 14, i.e. index 11 from there.
  const fields = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const ticks = fields.slice(11, 15).map(Number);
  if (ticks.length < 4 || ticks.some((n) => !Number.isFinite(n))) {
    throw new Error('not a /proc/<pid>/stat line: missing CPU time fields');
  }
  const [utime, stime, cutime, cstime] = ticks as [number, number, number, number];
  const micros = (n: number): number => (n * 1_000_000) / userHz;
  return { selfMicros: micros(utime + stime), childrenMicros: micros(cutime + cstime) };
}

/** The CPU time of a live process; null when procfs is missing or the process is gone. */
export function readProcessCpu(pid: number | 'self'): ProcessCpu | null {
  try {
    return parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The CPU time of a process and everything it started, in µs: its own threads, its children
 * that ended (waited for), and those still running, counted the same way. A service whose
 * workers are processes of their own (`serve`'s ingest workers) is measured whole. Null when
 * procfs is missing or the process is gone.
 */
export function readTreeCpu(pid: number): number | null {
  const cpu = readProcessCpu(pid);
  if (cpu === null) return null;
  let micros = cpu.selfMicros + cpu.childrenMicros;
  for (const child of childProcessesOf(pid)) micros += readTreeCpu(child) ?? 0;
  return micros;
}

/**
 * Measures the CPU a process and the processes it started use between `start()` and the
 * returned function's call, in µs (null without procfs). A child that ends meanwhile counts
 * once its parent has waited for it. For this process, prefer `process.cpuUsage()` (finer
 * grained).
 */
export function startCpuMeter(pid: number): () => number | null {
  const before = readTreeCpu(pid);
  return () => {
    const after = readTreeCpu(pid);
    return before === null || after === null ? null : after - before;
  };
}

/**
 * Measures the CPU of this process's children that end (and are reaped) between the call and
 * the returned function's call, in µs: the only way to count a short-lived child, whose own
 * `/proc` entry is gone by the time it can be read. Any other child ending meanwhile counts
 * too, so measure one child at a time.
 */
export function startChildrenCpuMeter(): () => number | null {
  const before = readProcessCpu('self');
  return () => {
    const after = readProcessCpu('self');
    return before === null || after === null ? null : after.childrenMicros - before.childrenMicros;
  };
}

/** Microseconds of CPU per request; null when either is unknown or nothing was served. */
export function microsPerRequest(cpuMicros: number | null, requests: number): number | null {
  return cpuMicros === null || requests <= 0 ? null : cpuMicros / requests;
}

/** Units of work per CPU-second (matches per CPU-second); null when the CPU is unknown or zero. */
export function perCpuSecond(units: number, cpuMicros: number | null): number | null {
  return cpuMicros === null || cpuMicros <= 0 ? null : (units * 1_000_000) / cpuMicros;
}
