/**
 * The HTTP ingest path: matches posted to a server, the server's CPU counted. Measured on the
 * same matches: posted to a freshly started server (the first pass, which also pays V8
 * compiling the ingest code and the routes), and posted to other fresh servers (`warmRuns`, the
 * cheapest counting) after each has ingested as many other matches of the same demo (distinct
 * ids, not measured) — the cost per match of a server that has been up for a while, which is
 * what a game server pool meets.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { stopChild, type ChildRegistry } from './children.ts';
import { CHECKPOINT_INTERVAL_MS } from '../src/store/sqlite/checkpoints.ts';
import { startCpuMeter } from './cpu.ts';
import type { MatchSet } from './ingest-matches.ts';
import { runCli, type PathCost } from './ingest-paths.ts';
import { startService, type RunningServer } from './servers.ts';

interface HttpOptions {
  workDir: string;
  cpus: string | null;
  cpuProfDir?: string | undefined;
  /** Warmed servers measured, the cheapest counting (as the library's and CLI's warm passes). */
  warmRuns?: number;
}

/**
 * `POST /ingest/matches` of the set, first to a fresh server, then to a warmed one (two requests
 * in flight, as a game server pool would); null when this build has no such route.
 */
export async function ingestWithHttp(
  children: ChildRegistry,
  set: MatchSet,
  options: HttpOptions,
): Promise<{ first: PathCost; warm: PathCost } | null> {
  const first = await withIngestServer(children, 'first', options, (post) => post(set.inputs));
  if (first === null) return null;
  let warm: PathCost | null = null;
  for (let run = 0; run < (options.warmRuns ?? 1); run++) {
    const cost = await withIngestServer(children, `warm-${run}`, options, async (post) => {
      const warmUp = await post(set.warmFiles.map((file) => () => fs.readFileSync(file)));
      if (warmUp.failures > 0) throw new Error(`${warmUp.failures} warm-up matches not stored`);
      return post(set.inputs);
    });
    if (warm === null || (cost!.cpuMicros ?? Infinity) < (warm.cpuMicros ?? Infinity)) warm = cost;
  }
  return { first, warm: warm! };
}

type Poster = (bodies: ReadonlyArray<Buffer | (() => Buffer)>) => Promise<PathCost>;

/**
 * Starts a server on a fresh store with an ingest key (`gamedata keys create --scope ingest`),
 * runs `use` with a function that posts bodies and measures the server's CPU meanwhile, and
 * stops the server; null when the build has no ingest route.
 */
async function withIngestServer(
  children: ChildRegistry,
  name: string,
  options: HttpOptions,
  use: (post: Poster) => Promise<PathCost>,
): Promise<PathCost | null> {
  const dataDir = fs.mkdtempSync(path.join(options.workDir, `http-${name}-`));
  const server = await startService(children, {
    label: `ingest server (${name})`,
    dataDir,
    cpus: options.cpus,
    cpuProfDir: options.cpuProfDir,
    stdout: { file: path.join(dataDir, 'server.log') },
  });
  try {
    if ((await post(server.origin, Buffer.from('{}'), null)).status === 404) return null;
    const created = await runCli(
      children,
      ['keys', 'create', '--name', 'bench-ingest', '--scope', 'ingest', '--rpm', '1000000000'],
      { dataDir, cpus: null },
    );
    const key = created.output.trim().split('\n').pop() ?? '';
    if (created.code !== 0 || !key.startsWith('gd_')) {
      throw new Error(`could not make an ingest key: ${created.output}`);
    }
    return await use((bodies) => postAll(server, key, bodies));
  } finally {
    await stopChild(server.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Posts every body, two in flight; a body may be read only when it is sent. */
async function postAll(
  server: RunningServer,
  key: string,
  bodies: ReadonlyArray<Buffer | (() => Buffer)>,
): Promise<PathCost> {
  const queue = [...bodies];
  let failures = 0;
  const wall = performance.now();
  const cpu = startCpuMeter(server.pid);
  const sender = async (): Promise<void> => {
    for (let body = queue.shift(); body !== undefined; body = queue.shift()) {
      const bytes = typeof body === 'function' ? body() : body;
      if ((await post(server.origin, bytes, key)).status !== 201) failures++;
    }
  };
  await Promise.all([sender(), sender()]);
  const wallMs = performance.now() - wall;
  // What the last matches left in the write-ahead log, the server's checkpoint thread copies
  // within its interval: counted, as it would be in a longer run.
  await new Promise((resolve) => setTimeout(resolve, CHECKPOINT_INTERVAL_MS + 250));
  return { matches: bodies.length - failures, cpuMicros: cpu(), wallMs, failures };
}

function post(origin: string, body: Buffer, key: string | null): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${origin}/ingest/matches`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
