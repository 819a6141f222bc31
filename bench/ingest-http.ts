/**
 * The HTTP ingest path: matches posted to a server on a fresh store, the server's CPU counted.
 */
import http from 'node:http';
import path from 'node:path';
import { stopChild, type ChildRegistry } from './children.ts';
import { startCpuMeter } from './cpu.ts';
import type { MatchSet } from './ingest-matches.ts';
import { runCli, type PathCost } from './ingest-paths.ts';
import { startService } from './servers.ts';

/**
 * `POST /ingest/matches` to a server on a fresh store (two requests in flight, as a game server
 * pool would), counting the server's CPU; null when this build has no such route. The ingest
 * key is made with `gamedata keys create --scope ingest`.
 */
export async function ingestWithHttp(
  children: ChildRegistry,
  set: MatchSet,
  options: { dataDir: string; cpus: string | null; cpuProfDir?: string | undefined },
): Promise<PathCost | null> {
  const server = await startService(children, {
    label: 'ingest server',
    ...options,
    stdout: { file: path.join(options.dataDir, 'server.log') },
  });
  try {
    if ((await post(server.origin, Buffer.from('{}'), null)).status === 404) return null;
    const created = await runCli(
      children,
      ['keys', 'create', '--name', 'bench-ingest', '--scope', 'ingest', '--rpm', '1000000000'],
      { dataDir: options.dataDir, cpus: null },
    );
    const key = created.output.trim().split('\n').pop() ?? '';
    if (created.code !== 0 || !key.startsWith('gd_')) {
      throw new Error(`could not make an ingest key: ${created.output}`);
    }
    const queue = [...set.inputs];
    let failures = 0;
    const wall = performance.now();
    const cpu = startCpuMeter(server.pid);
    const sender = async (): Promise<void> => {
      for (let body = queue.shift(); body !== undefined; body = queue.shift()) {
        if ((await post(server.origin, body, key)).status !== 201) failures++;
      }
    };
    await Promise.all([sender(), sender()]);
    return {
      matches: set.inputs.length - failures,
      cpuMicros: cpu(),
      wallMs: performance.now() - wall,
      failures,
    };
  } finally {
    await stopChild(server.child);
  }
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
