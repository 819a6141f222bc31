/**
 * Runs wrk (the Debian package; `apt-get install wrk`) against one target: a single path (the
 * "hot" case: wrk's pre-built request) or a list of paths cycled through (the "spread" case),
 * with the given headers, and returns what `wrk-report.lua` reported.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitOf, type ChildRegistry } from './children.ts';
import { parseWrkOutput, type WrkResult } from './wrk-output.ts';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'wrk-report.lua');

export interface WrkLoad {
  /** Origin of the server, `http://127.0.0.1:<port>`. */
  origin: string;
  /** One path: every request the same; several: cycled through. */
  paths: readonly string[];
  headers: Readonly<Record<string, string>>;
  connections: number;
  threads: number;
  /** CPUs wrk is pinned to (see planPinning). */
  cpus: string | null;
  /** Milliseconds each connection waits after an answer (a paced load); none when absent. */
  delayMs?: number;
}

/** The wrk version line, or null when wrk is not installed. */
export function wrkVersion(): string | null {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'pipe' });
  } catch (error) {
    // wrk prints its version and usage, then exits 1.
    const output = String((error as { stdout?: Buffer }).stdout ?? '');
    const version = /^wrk (\S+)/.exec(output)?.[1];
    if (version !== undefined) return `wrk ${version}`;
  }
  return null;
}

/** A wrk process under way; `stop()` interrupts it early (wrk then reports what it measured). */
export interface RunningWrk {
  child: ChildProcess;
  result: Promise<WrkResult>;
  stop(): Promise<WrkResult>;
}

/** Starts wrk for `seconds` (interrupt it with `stop()` for an open-ended run). */
export function startWrk(children: ChildRegistry, load: WrkLoad, seconds: number): RunningWrk {
  let pathsFile: string | null = null;
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (load.paths.length > 1) {
    pathsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-wrk-')), 'paths.txt');
    fs.writeFileSync(pathsFile, `${load.paths.join('\n')}\n`);
    env.WRK_PATHS = pathsFile;
  }
  if (load.delayMs !== undefined) env.WRK_DELAY_MS = String(load.delayMs);
  const args = [
    '--threads',
    String(load.threads),
    '--connections',
    String(load.connections),
    '--duration',
    `${Math.max(1, Math.round(seconds))}s`,
    // Long enough that a stalled server shows as latency rather than as dropped requests.
    '--timeout',
    '30s',
    '--script',
    SCRIPT,
    ...Object.entries(load.headers).flatMap(([name, value]) => ['--header', `${name}: ${value}`]),
    load.origin + load.paths[0]!,
  ];
  const child = children.spawn('wrk', args, {
    env,
    cpus: load.cpus,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const result = exitOf(child)
    .then((code) => {
      if (code !== 0 && !stdout.includes('WRK_RESULT')) {
        throw new Error(`wrk exited with ${code}: ${stderr || stdout}`);
      }
      return parseWrkOutput(stdout);
    })
    .finally(() => {
      if (pathsFile) fs.rmSync(path.dirname(pathsFile), { recursive: true, force: true });
    });
  return {
    child,
    result,
    stop() {
      child.kill('SIGINT');
      return result;
    },
  };
}

/** Runs wrk for `seconds` and resolves with its result. */
export function runWrk(
  children: ChildRegistry,
  load: WrkLoad,
  seconds: number,
): Promise<WrkResult> {
  return startWrk(children, load, seconds).result;
}
