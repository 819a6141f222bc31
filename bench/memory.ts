/**
 * Memory of the measured processes: the resident set size (RSS) a process holds, read from
 * procfs, and its peak over a stretch of load. Issue 10 asks for an RSS under 300 MB under load,
 * at a million players too; the kernel's own high-water mark (VmHWM) would include the start-up
 * and every earlier row, so the bench samples VmRSS while the row it reports runs.
 */
import fs from 'node:fs';
import { childProcessesOf } from '../src/jobs/job-priority.ts';

/** Resident set size of the service under load at most, in bytes (issue 10, item 4). */
export const RSS_GOAL_BYTES = 300 * 1_000_000;

/** How often a watched process's RSS is read: short enough to catch a job's burst. */
export const RSS_SAMPLE_MS = 100;

/**
 * The `VmRSS` of the text of `/proc/<pid>/status`, in bytes; null when the line is missing (a
 * kernel thread, or a process being reaped).
 */
export function parseVmRss(status: string): number | null {
  const line = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  return line === null ? null : Number(line[1]) * 1024;
}

/** The RSS of a live process in bytes; null without procfs or once the process is gone. */
export function readRss(pid: number | 'self'): number | null {
  try {
    return parseVmRss(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The pages of a live process that no other process maps (private: Private_Clean and
 * Private_Dirty of `/proc/<pid>/smaps_rollup`), in bytes; null without it.
 */
export function readPrivateBytes(pid: number): number | null {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    let kib = 0;
    for (const [, kb] of rollup.matchAll(/^Private_(?:Clean|Dirty):\s+(\d+) kB$/gm)) {
      kib += Number(kb);
    }
    return kib * 1024;
  } catch {
    return null;
  }
}

/**
 * The resident memory of a process and of the processes it started (`serve`'s ingest workers),
 * in bytes, each page counted once: the process's RSS, and of every descendant the pages it
 * alone maps. A child's shared pages are mostly Node's own code, which the parent's RSS holds
 * already; adding the children's RSS instead would count those some 40 MB again for each.
 * Null once the process is gone.
 */
export function readTreeRss(pid: number): number | null {
  const own = readRss(pid);
  if (own === null) return null;
  const privateOf = (parent: number): number =>
    childProcessesOf(parent).reduce(
      (sum, child) => sum + (readPrivateBytes(child) ?? 0) + privateOf(child),
      0,
    );
  return own + privateOf(pid);
}

/** A watch of one process's RSS, its children's included; `stop` gives the largest seen (bytes). */
export interface RssWatch {
  stop(): number | null;
}

/** Samples the RSS of `pid` and its children now and every `everyMs` until stopped. */
export function watchRss(pid: number, everyMs: number = RSS_SAMPLE_MS): RssWatch {
  let peak: number | null = null;
  const sample = (): void => {
    const rss = readTreeRss(pid);
    if (rss !== null && (peak === null || rss > peak)) peak = rss;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** Bytes as MB (10^6, as the goal is stated) for the tables, with the goal's mark; '–' when unknown. */
export function rssCell(bytes: number | null): string {
  if (bytes === null) return '–';
  return `${(bytes / 1_000_000).toFixed(0)} ${bytes < RSS_GOAL_BYTES ? '✓' : '✗'}`;
}
