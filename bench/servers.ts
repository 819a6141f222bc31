/**
 * Starts the processes that are measured: the service as users run it (`gamedata serve`, from
 * the sources through tsx, the same code `npm start` compiles), a variant of it with other
 * environment variables, the bench's own job server, and the bare server. Each is a child
 * process pinned to the servers' CPUs, stopped with the bench.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { ChildRegistry } from './children.ts';
import { dataDirEnv } from './bench-data.ts';
import { BUILT_MAIN } from './built.ts';
import { ROOT } from './project-root.ts';
import { getRaw } from './capture.ts';

/** A running server: its process (whose CPU is measured) and its origin. */
export interface RunningServer {
  label: string;
  pid: number;
  origin: string;
  child: ChildProcess;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Waits until `url` answers 200, failing early when the process exits. */
export async function waitUntilUp(
  url: string,
  child: ChildProcess,
  limitMs: number,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`);
    try {
      if ((await getRaw(url, {})).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${limitMs / 1000} s`);
}

export interface ServiceOptions {
  label: string;
  dataDir: string;
  /** Variables on top of the bench's defaults (a variant's METRICS=off, LOG_LEVEL=info, …). */
  env?: Readonly<Record<string, string>>;
  cpus: string | null;
  /** Write a V8 CPU profile into this directory when the process ends. */
  cpuProfDir?: string | undefined;
  /** The script and its arguments; default `dist/main.js serve` (see built.ts). */
  script?: string[];
  /**
   * Where its standard output (the JSON log) goes: a file appended to, as a log collector would
   * take it; 'pipe' to read it (the job server's replies); default: discarded.
   */
  stdout?: 'pipe' | { file: string };
}

/**
 * The environment the service is measured in: its own data, 127.0.0.1, the bench's public base
 * URL, no demo generation, no scheduled jobs (they are measured on their own, see
 * jobs-under-load.ts), and the log as deployed (LOG_LEVEL=info unless set for the bench).
 */
export function serviceEnv(dataDir: string, port: number): Record<string, string> {
  return {
    ...dataDirEnv(dataDir),
    PORT: String(port),
    HOST: '127.0.0.1',
    // As deployed: info, so the access line (ACCESS_LOG, on by default) is part of the cost.
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  };
}

/** Starts the service (or another script of the project) and waits until /healthz answers. */
export async function startService(
  children: ChildRegistry,
  options: ServiceOptions,
): Promise<RunningServer> {
  const port = await freePort();
  const env = { ...process.env, ...serviceEnv(options.dataDir, port), ...options.env };
  const profile = options.cpuProfDir
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProfDir)}`]
    : [];
  const script = options.script ?? [BUILT_MAIN, 'serve'];
  // The service as built (see built.ts); a bench script of its own (job-server.ts) under tsx.
  const loader = script[0]!.endsWith('.ts') ? ['--import', 'tsx'] : [];
  // Writing the log is part of the cost; reading it is not.
  const log = typeof options.stdout === 'object' ? fs.openSync(options.stdout.file, 'a') : null;
  const child = children.spawn(process.execPath, [...profile, ...loader, ...script], {
    env,
    cwd: ROOT,
    cpus: options.cpus,
    stdio: ['pipe', log ?? (options.stdout as 'pipe' | undefined) ?? 'ignore', 'pipe'],
  });
  if (log !== null) fs.closeSync(log);
  // Its banner is not for the bench's reader; what it says before failing to start is.
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => {
    stderr = (stderr + text).slice(-4000);
  });
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(`${origin}/healthz`, child, 120_000);
  } catch (error) {
    throw new Error(`${options.label}: ${(error as Error).message}\n${stderr}`, { cause: error });
  }
  return { label: options.label, pid: child.pid!, origin, child };
}

/** Starts the bare server on a manifest and resolves once it listens. */
export function startBareServer(
  children: ChildRegistry,
  manifestFile: string,
  cpus: string | null,
): Promise<RunningServer> {
  if (!fs.existsSync(manifestFile)) throw new Error(`no manifest ${manifestFile}`);
  const child = children.spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'bench/bare-server.ts'), manifestFile],
    { cwd: ROOT, cpus, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const port = /listening (\d+)/.exec(text)?.[1];
      if (port !== undefined) {
        resolve({ label: 'bare', pid: child.pid!, origin: `http://127.0.0.1:${port}`, child });
      }
    });
  });
}
