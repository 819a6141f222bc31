/**
 * The ways matches enter the store, each measured on a fresh store as CPU time of every process
 * doing the work: the library (`ingestMatch` in this process), the CLI (`gamedata ingest <dir>`
 * in a child) and the demo (`gamedata demo`, which also generates its matches); HTTP is in
 * ingest-http.ts. A CLI child's start (Node, tsx, migrations, and for `ingest` its worker
 * threads) is measured on its own and taken off, so the figure is the cost per match a long
 * ingest approaches.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { ingestMatch } from '../src/ingest/ingest-match.ts';
import { openRuntime } from '../src/runtime.ts';
import { dataDirEnv } from './bench-data.ts';
import { exitOf, type ChildRegistry } from './children.ts';
import { startChildrenCpuMeter } from './cpu.ts';
import type { MatchSet } from './ingest-matches.ts';
import { ROOT } from './project-root.ts';

/** One path's cost: matches stored, CPU µs of every process involved, wall ms (NaN: unknown). */
export interface PathCost {
  matches: number;
  cpuMicros: number | null;
  wallMs: number;
  failures: number;
}

/** What a CLI child costs before its first match: CPU µs and wall ms; null CPU without procfs. */
export interface StartCost {
  cpuMicros: number | null;
  wallMs: number;
}

/**
 * `ingestMatch` in this process, one match after the other, from the input bytes (given as the
 * source of the parsed input, as the CLI and HTTP paths give them), into a fresh store under
 * `dataDir` per pass; the cheapest of `passes` counts, as for the floor (measureFloor): a first
 * pass also pays V8 compiling the ingest code, which a long-running ingest pays once.
 */
export async function ingestWithLibrary(
  set: MatchSet,
  dataDir: string,
  passes = LIBRARY_PASSES,
): Promise<PathCost> {
  let best: PathCost | null = null;
  for (let pass = 0; pass < passes; pass++) {
    const cost = await libraryPass(set, path.join(dataDir, `pass-${pass}`));
    if (best === null || (cost.cpuMicros ?? Infinity) < (best.cpuMicros ?? Infinity)) best = cost;
  }
  return best!;
}

/** Passes of the library path, each into a fresh store; the cheapest counts. */
const LIBRARY_PASSES = 2;

async function libraryPass(set: MatchSet, dataDir: string): Promise<PathCost> {
  const runtime = await openRuntime(loadConfig(dataDirEnv(dataDir)));
  try {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    let failures = 0;
    for (const input of set.inputs) {
      const result = await ingestMatch(runtime, JSON.parse(input.toString('utf8')), {
        source: input,
      });
      if (result.status !== 'ingested') failures++;
    }
    const used = process.cpuUsage(cpu);
    return {
      matches: set.inputs.length - failures,
      cpuMicros: used.user + used.system,
      wallMs: performance.now() - wall,
      failures,
    };
  } finally {
    await runtime.close();
  }
}

/** Runs `gamedata <args>` to its end; resolves with its CPU µs (from this process's children). */
export async function runCli(
  children: ChildRegistry,
  args: string[],
  options: {
    dataDir: string;
    cpus: string | null;
    cpuProfDir?: string | undefined;
    env?: Readonly<Record<string, string>>;
  },
): Promise<{ cpuMicros: number | null; wallMs: number; output: string; code: number | null }> {
  const profile = options.cpuProfDir
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProfDir)}`]
    : [];
  const wall = performance.now();
  const meter = startChildrenCpuMeter();
  const child = children.spawn(
    process.execPath,
    [...profile, '--import', 'tsx', path.join(ROOT, 'src/main.ts'), ...args],
    {
      cwd: ROOT,
      cpus: options.cpus,
      env: { ...process.env, ...dataDirEnv(options.dataDir), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await exitOf(child);
  return { cpuMicros: meter(), wallMs: performance.now() - wall, output, code };
}

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

/** A CLI run's cost less its start (CPU and wall time). */
function lessStart(run: { cpuMicros: number | null; wallMs: number }, start: StartCost) {
  return {
    cpuMicros:
      run.cpuMicros === null || start.cpuMicros === null ? null : run.cpuMicros - start.cpuMicros,
    // Unknown (NaN) when the start, measured in another run, took longer than this whole run.
    wallMs: run.wallMs > start.wallMs ? run.wallMs - start.wallMs : NaN,
  };
}

/** `gamedata ingest <dir>` in a child process, its start taken off. */
export async function ingestWithCli(
  children: ChildRegistry,
  set: MatchSet,
  options: {
    dataDir: string;
    cpus: string | null;
    start: StartCost;
    cpuProfDir?: string | undefined;
  },
): Promise<PathCost> {
  const run = await runCli(children, ['ingest', set.dir], options);
  const stored = (run.output.match(/^ingested /gm) ?? []).length;
  return {
    matches: stored,
    ...lessStart(run, options.start),
    failures: set.inputs.length - stored,
  };
}

/** `gamedata demo --scale <x>` in a child process, its start taken off; generation included. */
export async function ingestWithDemo(
  children: ChildRegistry,
  options: { scale: number; seed: number; dataDir: string; cpus: string | null; start: StartCost },
): Promise<PathCost> {
  const run = await runCli(
    children,
    ['demo', '--scale', String(options.scale), '--seed', String(options.seed)],
    options,
  );
  // Matches stored by this run ("(N new, …"), the work its CPU time paid for.
  const matches = Number(/\((\d+) new\b/.exec(run.output)?.[1] ?? 0);
  return { matches, ...lessStart(run, options.start), failures: run.code === 0 ? 0 : 1 };
}
