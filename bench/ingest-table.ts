/** The ingest measurements as a Markdown table, with what each row is. */
import {
  DEMO_FIRST_PASS_SCALE,
  DEMO_GOAL,
  INGEST_GOAL,
  type IngestReport,
} from './ingest-report.ts';
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
  const starts = [
    report.cliWorkersStartSeconds === null
      ? null
      : `${report.cliWorkersStartSeconds.toFixed(2)} CPU s with its ingest worker threads', off the CLI first pass`,
    report.cliStartSeconds === null
      ? null
      : `${report.cliStartSeconds.toFixed(2)} CPU s without, off the demo row`,
  ].filter((part) => part !== null);
  const start = starts.length === 0 ? '' : ` A CLI process's start: ${starts.join('; ')}.`;
  return (
    `${table}\n\n` +
    'Floor: JSON.parse of each input and one gzip of its telemetry, the cheapest pass of those made before each path and after the last (three each time, one on full-size telemetry after the first). ' +
    'Each path is shown warm — held to the goal, the cost per match of a process that has been ingesting for a while — and on its first pass, which also pays V8 compiling the ingest code. ' +
    'Library: `ingestMatchBytes` in this process, the matches into a fresh store, and the cheaper of two passes (one on full-size telemetry) that each ingest as many other matches of the same demo first, unmeasured (each pass into a fresh store). ' +
    "HTTP: the same matches posted to a freshly started server, and to others (the cheaper of two, one on full-size telemetry) after each ingested as many other matches of the same demo; its CPU is read a checkpoint interval after the last answer, so that the copy of the last matches' log is counted. " +
    'CLI (`gamedata ingest <dir>`, pinned like the servers): one run of the matches less the start measured apart, and warm the CPU of the process (every thread) between the lines reporting the last of as many other matches and the last of these, in a run that ingests those others first and a few more after (the cheaper of two runs, one on full-size telemetry); ' +
    '"CLI unpinned" is that warm window with the process free to use every core: its cores used says whether both work (on a shared machine, only as far as the other core is free). ' +
    `Demo: a whole \`gamedata demo\` run (pinned, its start taken off) per match stored, generation included; its first pass is a run at scale ${DEMO_FIRST_PASS_SCALE}, whose start-up compiling weighs on some 80 matches, the row held to the goal a longer one (\`--ingest-demo-scale\`; the default data set is scale 1). ` +
    `Goals: ingest ≥ ${INGEST_GOAL}×, demo (generation included) ≥ ${DEMO_GOAL}× the floor.${start}`
  );
}
