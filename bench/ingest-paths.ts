/**
 * The ways matches enter the store, each measured as CPU time of every process doing the work:
 * the library (`ingestMatchBytes` in this process) and the demo (`gamedata demo`, which also
 * generates its matches) here, the CLI in ingest-cli.ts, HTTP in ingest-http.ts. A CLI child's
 * start (Node, tsx, migrations, and for `ingest` its worker threads) is measured on its own and
 * taken off.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { ingestMatchBytes } from '../src/ingest/ingest-prepared.ts';
import { openRuntime } from '../src/runtime.ts';
import { dataDirEnv } from './bench-data.ts';
import { exitOf, type ChildRegistry } from './children.ts';
import { startChildrenCpuMeter } from './cpu.ts';
import type { MatchSet } from './ingest-matches.ts';
import { BUILT_MAIN } from './built.ts';
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
 * `ingestMatchBytes` in this process (no worker pool), one match after the other, from the input
 * bytes, as the CLI and HTTP paths get them, each pass into a fresh store
 * under `dataDir`. `first`: the set into a fresh store, the first pass, which also pays V8
 * compiling the ingest code; `warm`: the cheaper of later passes that each ingest the warm-up
 * matches first, unmeasured, then the set — as the HTTP and CLI paths are measured warm: a store
 * that already holds matches of the same players upserts into existing rows, which costs SQLite
 * more than filling an empty one.
 */
export async function ingestWithLibrary(
  set: MatchSet,
  dataDir: string,
  passes = LIBRARY_PASSES,
): Promise<{ first: PathCost; warm: PathCost }> {
  const first = await libraryPass(set, path.join(dataDir, 'pass-0'), false);
  let warm: PathCost | null = null;
  for (let pass = 1; pass < passes; pass++) {
    const cost = await libraryPass(set, path.join(dataDir, `pass-${pass}`), true);
    if (warm === null || (cost.cpuMicros ?? Infinity) < (warm.cpuMicros ?? Infinity)) warm = cost;
  }
  return { first, warm: warm! };
}

/** Passes of the library path, each into a fresh store: the first, then warm ones. */
const LIBRARY_PASSES = 3;

async function libraryPass(set: MatchSet, dataDir: string, warmUp: boolean): Promise<PathCost> {
  const runtime = await openRuntime(loadConfig(dataDirEnv(dataDir)));
  const ingest = async (input: Buffer): Promise<boolean> => {
    // Null: not a match in the ingest format, which the set's files all are.
    const result = await ingestMatchBytes(runtime, null, input);
    return result?.status === 'ingested';
  };
  try {
    if (warmUp) for (const file of set.warmFiles) await ingest(fs.readFileSync(file));
    const wall = performance.now();
    const cpu = process.cpuUsage();
    let failures = 0;
    for (const input of set.inputs) if (!(await ingest(input))) failures++;
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

/**
 * Runs `gamedata <args>` to its end; resolves with its CPU µs (from this process's children).
 * `onLine` sees each line of its standard output as it comes, with the child's pid.
 */
export async function runCli(
  children: ChildRegistry,
  args: string[],
  options: {
    dataDir: string;
    cpus: string | null;
    cpuProfDir?: string | undefined;
    env?: Readonly<Record<string, string>>;
    onLine?: (line: string, pid: number) => void;
  },
): Promise<{ cpuMicros: number | null; wallMs: number; output: string; code: number | null }> {
  const profile = options.cpuProfDir
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProfDir)}`]
    : [];
  const wall = performance.now();
  const meter = startChildrenCpuMeter();
  const child = children.spawn(process.execPath, [...profile, BUILT_MAIN, ...args], {
    cwd: ROOT,
    cpus: options.cpus,
    env: { ...process.env, ...dataDirEnv(options.dataDir), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    if (options.onLine === undefined) return;
    const lines = (partial + text).split('\n');
    partial = lines.pop()!;
    for (const line of lines) options.onLine(line, child.pid!);
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await exitOf(child);
  return { cpuMicros: meter(), wallMs: performance.now() - wall, output, code };
}

/** A CLI run's cost less its start (CPU and wall time). */
export function lessStart(run: { cpuMicros: number | null; wallMs: number }, start: StartCost) {
  return {
    cpuMicros:
      run.cpuMicros === null || start.cpuMicros === null ? null : run.cpuMicros - start.cpuMicros,
    // Unknown (NaN) when the start, measured in another run, took longer than this whole run.
    wallMs: run.wallMs > start.wallMs ? run.wallMs - start.wallMs : NaN,
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
