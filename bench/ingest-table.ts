/** The ingest measurements as a Markdown table, with what each row is. */
import { DEMO_GOAL, INGEST_GOAL, type IngestReport } from './ingest-report.ts';
import { amount, count, markdownTable, ratioCell, size } from './report.ts';

export function ingestTable(report: IngestReport): string {
  const table = markdownTable(
    [
      'path',
      'telemetry',
      'matches',
      'input/match',
      'CPU s',
      'wall s',
      'cores used',
      'matches/CPU-s',
      '× floor',
    ],
    report.rows.map((row) => [
      row.path + (row.failures > 0 ? ` ⚠ ${row.failures} failed` : ''),
      row.profile,
      count(row.matches),
      Number.isFinite(row.inputBytes) ? size(row.inputBytes) : '—',
      amount(row.cpuSeconds),
      Number.isFinite(row.wallSeconds) ? amount(row.wallSeconds) : '—',
      row.cpuSeconds === null || !Number.isFinite(row.wallSeconds)
        ? '—'
        : (row.cpuSeconds / row.wallSeconds).toFixed(2),
      amount(row.perCpuSecond),
      row.path === 'floor' ? '1.00×' : ratioCell(row.floorRatio, row.goal),
    ]),
  );
  const start =
    report.cliStartSeconds === null || report.cliWorkersStartSeconds === null
      ? ''
      : ` A CLI process's start (${report.cliWorkersStartSeconds.toFixed(2)} CPU s with its ingest worker threads', ${report.cliStartSeconds.toFixed(2)} without) is taken off the CLI first pass and the demo rows.`;
  return (
    `${table}\n\n` +
    'Floor: JSON.parse of each input and one gzip of its telemetry, the cheapest of three passes. ' +
    'Each path is shown warm — held to the goal, the cost per match of a process that has been ingesting for a while — and on its first pass, which also pays V8 compiling the ingest code. ' +
    'Library: the first of three passes in this process, each into a fresh store, and the cheaper of the other two. ' +
    'HTTP: the same matches posted to a freshly started server, and to another one after it ingested as many other matches of the same demo. ' +
    'CLI (`gamedata ingest <dir>`, pinned like the servers): one run of the matches less the start, and warm the marginal cost of as many more — a run of the other matches then these, less the run of these (cheapest of two runs each, alternating); ' +
    '"CLI unpinned" is that marginal cost with the process free to use every core (its cores used: whether both work). ' +
    `Goals: ingest ≥ ${INGEST_GOAL}×, demo (generation included) ≥ ${DEMO_GOAL}× the floor.${start}`
  );
}
