/**
 * What the fault tests share: the real server as a child process (`node --import tsx
 * src/main.ts serve`) on a free 127.0.0.1 port, a PostgreSQL database of the test's own on the
 * local server (so terminating its backends or refusing its connections touches nobody else),
 * and a request loop that records every answer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  dataDir: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves once stdout or stderr matches, rejects after `timeoutMs` or on exit. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `gamedata serve` with this environment (plus a fresh DATA_DIR, PORT and HOST). */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-fault-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      TZ: 'UTC',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_DATA: 'off',
      JOBS: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const listener of listeners) listener();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    for (const listener of listeners) listener();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, timeoutMs) {
      return new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (pattern.test(out) || pattern.test(err)) done(null);
        };
        const timer = setTimeout(
          () => done(new Error(`no ${pattern} within ${timeoutMs} ms; stderr:\n${err}`)),
          timeoutMs,
        );
        const done = (error: Error | null): void => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve();
        };
        listeners.add(check);
        void exited.then((code) => done(new Error(`server exited (${code}); stderr:\n${err}`)));
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A database of the test's own on the PostgreSQL server of TEST_DATABASE_URL. */
export interface OwnDatabase {
  name: string;
  url: string;
  create(): Promise<void>;
  /** Ends every session of this database (as a failover or restart would). */
  terminateBackends(): Promise<number>;
  /** Refuses (or allows again) new sessions to this database. */
  allowConnections(allow: boolean): Promise<void>;
  drop(): Promise<void>;
}

export async function ownDatabase(purpose: string): Promise<OwnDatabase> {
  const base = process.env.TEST_DATABASE_URL!;
  const name = `gd_${purpose}_${crypto.randomBytes(4).toString('hex')}`;
  const url = new URL(base);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: base });
  admin.on('error', () => {});
  await admin.connect();
  return {
    name,
    url: url.toString(),
    create: async () => void (await admin.query(`CREATE DATABASE ${name}`)),
    async terminateBackends() {
      const result = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      return result.rowCount ?? 0;
    },
    allowConnections: async (allow) =>
      void (await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS ${allow}`)),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

export interface Answer {
  status: number;
  /** Milliseconds from sending to the whole body. */
  ms: number;
  retryAfter: string | null;
  body: string;
  at: number;
}

/**
 * Sends requests from `workers` loops until stopped, recording every answer (a failed fetch is
 * status 0). Each request gives up after `timeoutMs`.
 */
export function requestLoop(
  urls: () => string,
  headers: Record<string, string>,
  options: { workers: number; timeoutMs: number; pauseMs?: number },
) {
  const answers: Answer[] = [];
  let running = true;
  const worker = async (): Promise<void> => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(urls(), {
          headers,
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        const body = await response.text();
        answers.push({
          status: response.status,
          ms: performance.now() - started,
          retryAfter: response.headers.get('retry-after'),
          body,
          at: performance.now(),
        });
      } catch (error) {
        answers.push({
          status: 0,
          ms: performance.now() - started,
          retryAfter: null,
          body: String(error),
          at: performance.now(),
        });
      }
      if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  };
  const workers = Array.from({ length: options.workers }, worker);
  return {
    answers,
    async stop(): Promise<Answer[]> {
      running = false;
      await Promise.all(workers);
      return answers;
    },
  };
}

/** True when a `redis-server` binary is on PATH. */
export function hasRedisServer(): boolean {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir !== '' && fs.existsSync(path.join(dir, 'redis-server')));
}

export interface RedisProcess {
  url: string;
  /** Kills the server (its counters are lost: no persistence). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

/** A throw-away `redis-server` on a free 127.0.0.1 port, without persistence. */
export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async (): Promise<void> => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      started.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      started.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const running = child;
      if (running === null || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
      child = null;
    },
    start,
  };
}
