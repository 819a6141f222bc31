/**
 * How results read: Markdown tables (pasted into the README as they are), the machine and the
 * settings they were measured with, and the ✓/✗ of each goal. Pure formatting.
 */
import os from 'node:os';
import { P99_GOAL_MS } from './endpoint-catalogue.ts';
import type { RowResult } from './serving.ts';

/** A Markdown table; columns after the first are right-aligned (numbers). */
export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]): string =>
    `| ${cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
      )
      .join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (column === 0 ? `${'-'.repeat(width + 2)}` : `${'-'.repeat(width + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** `12,345`; an em dash for unknown. */
export function count(value: number | null): string {
  return value === null || !Number.isFinite(value)
    ? '—'
    : Math.round(value).toLocaleString('en-US');
}

/** Microseconds or milliseconds: three significant digits, at least a whole unit. */
export function amount(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '—';
  return value >= 100 ? count(value) : value.toPrecision(3);
}

/** `0.74× ✓` against a minimum ratio; no mark without a goal. */
export function ratioCell(ratio: number | null, goal: number | null): string {
  if (ratio === null || !Number.isFinite(ratio)) return '—';
  const text = `${ratio.toFixed(2)}×`;
  return goal === null ? text : `${text} ${ratio >= goal ? '✓' : '✗'}`;
}

/** `3.21 ✓` against the p99 goal. */
export function latencyCell(ms: number, goalMs: number | null = P99_GOAL_MS): string {
  if (!Number.isFinite(ms)) return '—';
  const text = amount(ms);
  return goalMs === null ? text : `${text} ${ms < goalMs ? '✓' : '✗'}`;
}

/** Bytes as `14.2 KB`. */
export function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${Math.round(bytes)} B`;
}

/** The table of the serving rows. */
export function servingTable(rows: readonly RowResult[]): string {
  const header = [
    'endpoint',
    'mode',
    'body',
    'service req/s',
    'baseline req/s',
    '× req/s',
    'service CPU µs/req',
    'baseline CPU µs/req',
    '× CPU',
    'service p99 ms',
    'baseline p99 ms',
    'goal',
  ];
  const lines = rows.map((row) => {
    const failures = row.subject.failures + row.baseline.failures;
    const name =
      (row.kind === 'variant' ? `${row.label} vs ${row.baselineLabel}` : row.label) +
      (failures > 0 ? ` ⚠ ${failures} failed` : '');
    return [
      name,
      row.mode === 'spread' ? `spread ×${row.paths}` : 'hot',
      size(row.subject.bytesPerRequest),
      count(row.subject.requestsPerSecond),
      count(row.baseline.requestsPerSecond),
      ratioCell(row.requestsRatio, row.goal),
      amount(row.subject.cpuMicrosPerRequest),
      amount(row.baseline.cpuMicrosPerRequest),
      ratioCell(row.cpuRatio, row.goal),
      latencyCell(row.subject.p99Ms),
      latencyCell(row.baseline.p99Ms, null),
      `${row.goal === null ? '' : `≥ ${row.goal}×, `}p99 < ${P99_GOAL_MS} ms`,
    ];
  });
  return markdownTable(header, lines);
}

export interface MachineInfo {
  date: string;
  cpuModel: string;
  cores: number;
  platform: string;
  node: string;
  wrk: string | null;
  loadBefore: number[];
  loadAfter: number[] | null;
}

export function machineInfo(wrk: string | null): MachineInfo {
  return {
    date: new Date().toISOString(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: os.cpus().length,
    platform: `${os.type()} ${os.release()}`,
    node: process.version,
    wrk,
    loadBefore: os.loadavg(),
    loadAfter: null,
  };
}

export function machineLine(machine: MachineInfo): string {
  const load = (values: number[] | null): string =>
    values === null ? '?' : values.map((v) => v.toFixed(2)).join(' ');
  return (
    `${machine.date.slice(0, 16).replace('T', ' ')} UTC · ${machine.cpuModel}, ${machine.cores} cores · ` +
    `${machine.platform} · Node ${machine.node} · ${machine.wrk ?? 'no wrk'} · ` +
    `load average ${load(machine.loadBefore)} before, ${load(machine.loadAfter)} after`
  );
}
