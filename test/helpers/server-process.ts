/**
 * The real server (or any `gamedata` command) as a child process, for tests of what only a
 * process shows: signals, exit codes, ports, stdout. Runs the sources through tsx on 127.0.0.1
 * and a free port; the caller kills or stops it (a test timeout kills it too).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** True when nothing listens on the port any more (a new server can bind it). */
export async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export interface ChildRun {
  child: ChildProcess;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) and when it happened. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** Spawns `node --import tsx src/main.ts <args>` with `env` over the current environment. */
export function runGamedata(args: string[], env: Record<string, string>): ChildRun {
  return track(
    spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/** Wraps any child process the same way (e.g. `npm start`). */
export function track(child: ChildProcess): ChildRun {
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (out += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (err += text));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>(
    (resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Waits until `url` answers 200, failing early when the process exits. */
export async function waitUntilServing(
  run: ChildRun,
  url: string,
  limitMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (run.child.exitCode !== null) {
      throw new Error(`the server exited with ${run.child.exitCode}:\n${run.stderr()}`);
    }
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${limitMs / 1000} s:\n${run.stderr()}`);
}

/** The stdout lines of a run parsed as JSON; throws on any line that is not. */
export function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`stdout line is not JSON: ${line}`);
      }
    });
}
