/**
 * The CLI path, `gamedata ingest <dir>` in a child process. Two figures per set, both shown:
 * - first pass: a run of the set's N matches less the process's start, measured apart (it
 *   includes V8 compiling the ingest code, in the main thread and in each worker thread);
 * - warm: in one run of N other matches of the same demo, then the set, then a few more, the
 *   process's CPU time (every thread: /proc/<pid>/stat) and the wall time from the line that
 *   reports the last warm-up match stored to the line that reports the set's last — N matches
 *   stored, and about as many prepared by the worker threads, by a process that has been
 *   ingesting for a while, with no start to take off. The files after the set keep the workers
 *   preparing until the set's last match is stored, as in the middle of a long run.
 * Pinned as the servers are (the cheaper of two warm runs), and once more unpinned: the warm
 * window's cores used then says whether both cores work.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ChildRegistry } from './children.ts';
import { readProcessCpu } from './cpu.ts';
import type { MatchSet } from './ingest-matches.ts';
import { lessStart, runCli, type PathCost, type StartCost } from './ingest-paths.ts';

/**
 * A CLI run that does nothing but start, open (and migrate) a fresh store and end — with
 * `workers`, after starting its ingest worker threads; the cheaper of two runs, the first of
 * which may fill tsx's transform cache. Workers start at a directory's first files, as in a
 * measured run; the two files given are then `{}`, which a worker hands straight back and the
 * main thread refuses. A worker's start is paid once per process like the process's own (from
 * the TypeScript sources it loads its modules through tsx's hooks, about as much CPU as 10
 * matches of 2 MB), so the CLI row has it taken off with it; the demo starts no worker.
 */
export async function cliStartCost(
  children: ChildRegistry,
  workDir: string,
  cpus: string | null,
  workers: boolean,
): Promise<StartCost> {
  let best: StartCost | null = null;
  for (let run = 0; run < 2; run++) {
    const empty = fs.mkdtempSync(path.join(workDir, 'empty-'));
    if (workers)
      for (const name of ['a.json', 'b.json']) fs.writeFileSync(path.join(empty, name), '{}');
    const { cpuMicros, wallMs } = await runCli(children, ['ingest', empty], {
      dataDir: fs.mkdtempSync(path.join(workDir, 'start-')),
      cpus,
    });
    if (best === null || (cpuMicros ?? Infinity) < (best.cpuMicros ?? Infinity)) {
      best = { cpuMicros, wallMs };
    }
  }
  return best!;
}

/** The CLI rows of a set: first pass, warm and, when pinned, warm unpinned. */
export interface CliCosts {
  first: PathCost;
  warm: PathCost;
  /** The warm figure with no pinning: its cores used tells whether both cores work. */
  unpinned: PathCost | null;
}

/** Warm runs pinned by default; the cheapest counts. */
const WARM_RUNS = 2;

export async function ingestWithCli(
  children: ChildRegistry,
  set: MatchSet,
  options: {
    workDir: string;
    cpus: string | null;
    /** Every CPU, for the unpinned run (a child would otherwise inherit the bench's pinning). */
    everyCpu: string | null;
    start: StartCost;
    cpuProfDir?: string | undefined;
    /** Pinned warm runs, the cheapest counting. */
    warmRuns?: number;
  },
): Promise<CliCosts> {
  const run = (dir: string, cpus: string | null, window?: [number, number]) =>
    cliRun(children, dir, { ...options, cpus }, window);
  const single = await run(set.dir, options.cpus);
  const first: PathCost = {
    matches: single.ingested,
    ...lessStart(single, options.start),
    failures: set.inputs.length - single.ingested,
  };
  const warmUp = set.warmFiles.length;
  const window: [number, number] = [warmUp, warmUp + set.inputs.length];
  let warm: PathCost | null = null;
  for (let i = 0; i < (options.warmRuns ?? WARM_RUNS); i++) {
    const cost = (await run(set.bothDir, options.cpus, window)).window!;
    if (warm === null || (cost.cpuMicros ?? Infinity) < (warm.cpuMicros ?? Infinity)) warm = cost;
  }
  const unpinned =
    options.cpus === null ? null : (await run(set.bothDir, options.everyCpu, window)).window!;
  return { first, warm: warm!, unpinned };
}

interface CliRun {
  cpuMicros: number | null;
  wallMs: number;
  ingested: number;
  /** The cost between the `window` lines (counted from 1), when asked for. */
  window?: PathCost;
}

/**
 * `gamedata ingest <dir>` on a fresh store; with `window` [a, b], also the process's CPU and wall
 * time between its a-th and b-th result lines (each `ingested …` or other result line).
 */
async function cliRun(
  children: ChildRegistry,
  dir: string,
  options: { workDir: string; cpus: string | null; cpuProfDir?: string | undefined },
  window?: [number, number],
): Promise<CliRun> {
  const dataDir = fs.mkdtempSync(path.join(options.workDir, 'cli-'));
  let lines = 0;
  let stored = 0;
  const marks: { cpuMicros: number | null; at: number }[] = [];
  const onLine = (line: string, pid: number): void => {
    if (!RESULT_LINE.test(line)) return;
    lines++;
    if (line.startsWith('ingested ') && window && lines > window[0] && lines <= window[1]) stored++;
    if (window && (lines === window[0] || lines === window[1])) {
      marks.push({ cpuMicros: readProcessCpu(pid)?.selfMicros ?? null, at: performance.now() });
    }
  };
  const done = await runCli(children, ['ingest', dir], { ...options, dataDir, onLine });
  fs.rmSync(dataDir, { recursive: true, force: true });
  const ingested = (done.output.match(/^ingested /gm) ?? []).length;
  if (!window) return { ...done, ingested };
  const [from, to] = marks;
  const cpu =
    from?.cpuMicros == null || to?.cpuMicros == null ? null : to.cpuMicros - from.cpuMicros;
  const expected = window[1] - window[0];
  return {
    ...done,
    ingested,
    window: {
      matches: stored,
      cpuMicros: cpu,
      wallMs: from && to ? to.at - from.at : NaN,
      failures: expected - stored,
    },
  };
}

/** A line reporting one file's result (the summary and other output are not). */
const RESULT_LINE = /^(ingested|attached|unchanged|duplicate) /;
