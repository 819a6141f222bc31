/**
 * Memory of the measured processes: the resident set size (RSS) a process holds, read from
 * procfs, and its peak over a stretch of load. Issue 10 asks for an RSS under 300 MB under load,
 * at a million players too; the kernel's own high-water mark (VmHWM) would include the start-up
 * and every earlier row, so the bench samples VmRSS while the row it reports runs.
 */
import fs from 'node:fs';

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

/** A watch of one process's RSS; `stop` ends it and gives the largest value seen (bytes). */
export interface RssWatch {
  stop(): number | null;
}

/** Samples the RSS of `pid` now and every `everyMs` until stopped. */
export function watchRss(pid: number, everyMs: number = RSS_SAMPLE_MS): RssWatch {
  let peak: number | null = null;
  const sample = (): void => {
    const rss = readRss(pid);
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
