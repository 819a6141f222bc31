/**
 * `npm run bench`: measures the API against the fastest thing Node can do. It fills a temporary
 * data directory with demo data, starts the real server and a bare `node:http` server serving
 * the very same bytes (each a child process on 127.0.0.1), loads both with autocannon and prints
 * requests/s, p99 latency, the servers' CPU time per request and the ratios to the bare server.
 * The target (DESIGN §6: a match is served from stored bytes): ≥ 0.8× the bare server. A second
 * server with METRICS=off serves the same match, so the cost of metrics on the match path is a
 * ratio measured in the same run (goal: under 5%).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../src/config.ts';
import { openRuntime } from '../src/runtime.ts';
import { createApiKey } from '../src/store/api-keys.ts';
import { populateDemo } from '../src/demo/populate-demo.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Options {
  duration: number;
  warmup: number;
  slice: number;
  connections: number;
  scale: number;
  seed: number;
  timeout: number;
  cpuProf: string | undefined;
  groups: string[];
}

/** The comparisons the bench can run, each a server and its baseline measured alternately. */
const GROUPS = ['match', 'player', 'metrics'] as const;

const positive = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
};

const options = new Command('bench')
  .description('Throughput of the match and player endpoints against a bare node:http server.')
  .option('-d, --duration <seconds>', 'measured seconds per target', positive, 10)
  .option('-w, --warmup <seconds>', 'unmeasured seconds per target before measuring', positive, 3)
  .option('--slice <seconds>', 'length of the alternating measurement slices', positive, 2)
  .option('-c, --connections <n>', 'concurrent connections', positive, 100)
  .option('--scale <factor>', 'demo data scale', positive, 0.2)
  .option('--seed <n>', 'demo data seed', positive, 1)
  .option('--timeout <seconds>', 'give up (and stop every child) after this long', positive, 600)
  .option('--cpu-prof <dir>', 'write a V8 CPU profile of the real server into this directory')
  .option(
    '--groups <names>',
    `comparisons to run, comma-separated: ${GROUPS.join(', ')}`,
    (value: string) => {
      const names = value.split(',');
      const unknown = names.filter((name) => !(GROUPS as readonly string[]).includes(name));
      if (unknown.length > 0) throw new InvalidArgumentError(`unknown group ${unknown.join(', ')}`);
      return names;
    },
    [...GROUPS],
  )
  .parse()
  .opts<Options>();

const children = new Set<ChildProcess>();

/** Starts a Node child process (TypeScript through tsx); it is killed whenever the bench ends. */
function startChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdout: 'pipe' | number = 'pipe',
): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', stdout, 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Stops every child: SIGTERM (so a CPU profile gets written), SIGKILL after two seconds. */
async function stopChildren(): Promise<void> {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise<void>((resolve) => {
          const kill = setTimeout(() => child.kill('SIGKILL'), 2_000);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}

/** The temporary data directory, removed however the bench ends. */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-bench-'));

// Last resort for any way out that skips the orderly stop (exceptions, signals, the timeout).
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => process.exit(130));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET whose body is returned as received (fetch would decompress it). */
function getRaw(url: string, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

async function waitUntilUp(url: string, child: ChildProcess, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await getRaw(url, {})).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${limitMs / 1000} s`);
}

/** Starts the bare server and resolves with its port once it prints it. */
function startBareServer(manifestFile: string): Promise<{ port: number; pid: number }> {
  const child = startChild([path.join(ROOT, 'bench/bare-server.ts'), manifestFile], {
    ...process.env,
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bare server exited with code ${code}`)));
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      const port = /listening (\d+)/.exec(text)?.[1];
      if (port !== undefined) resolve({ port: Number(port), pid: child.pid! });
    });
  });
}

/** Headers a cached response replays: everything but what belongs to one connection or moment. */
function replayableHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const skipped = new Set([
    'date',
    'connection',
    'keep-alive',
    'content-length',
    'transfer-encoding',
  ]);
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name, value]) => !skipped.has(name) && typeof value === 'string')
      .map(([name, value]) => [name, value as string]),
  );
}

interface Target {
  name: string;
  /** The process that answers it, whose CPU time is measured. */
  pid: number;
  url: string;
  headers: Record<string, string>;
  /** The target whose throughput this one is compared with. */
  baseline?: string;
}

interface Measurement {
  target: Target;
  requestsPerSecond: number;
  /** The worst p99 latency of the slices, in ms. */
  p99Ms: number;
  /** Server CPU time (user + system) per request, in µs; null where /proc is unavailable. */
  cpuMicrosPerRequest: number | null;
  bytesPerRequest: number;
  failures: number;
}

async function load(target: Target, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: target.url,
    headers: target.headers,
    connections: options.connections,
    pipelining: 1,
    duration: seconds,
  });
}

/** Kernel clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

/** CPU time a process has used so far (user + system), in µs; null without procfs. */
function cpuMicros(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / USER_HZ;
  } catch {
    return null;
  }
}

/**
 * Measures a group of targets (a server and its baseline) in alternating slices of `--slice`
 * seconds until each has had `--duration` seconds: a slow drift of the machine (other work,
 * CPU frequency) then weighs on both sides alike instead of on whichever ran second.
 */
async function measureGroup(group: Target[]): Promise<Measurement[]> {
  for (const target of group) {
    process.stderr.write(`  ${target.name}: warming up ${options.warmup} s\n`);
    await load(target, options.warmup);
  }
  const slices = Math.max(1, Math.round(options.duration / options.slice));
  process.stderr.write(
    `  measuring ${slices} × ${options.duration / slices} s each, alternating\n`,
  );
  const totals = group.map(() => ({
    requests: 0,
    seconds: 0,
    bytes: 0,
    failures: 0,
    p99: 0,
    cpu: 0,
  }));
  let cpuKnown = true;
  for (let slice = 0; slice < slices; slice++) {
    for (const [i, target] of group.entries()) {
      const total = totals[i]!;
      const cpuBefore = cpuMicros(target.pid);
      const result = await load(target, options.duration / slices);
      const cpuAfter = cpuMicros(target.pid);
      if (cpuBefore === null || cpuAfter === null) cpuKnown = false;
      else total.cpu += cpuAfter - cpuBefore;
      total.requests += result.requests.total;
      total.seconds += result.duration;
      total.bytes += result.throughput.total;
      total.failures += result.errors + result.timeouts + result.non2xx;
      total.p99 = Math.max(total.p99, result.latency.p99);
    }
  }
  return group.map((target, i) => {
    const total = totals[i]!;
    return {
      target,
      requestsPerSecond: total.requests / total.seconds,
      p99Ms: total.p99,
      cpuMicrosPerRequest: cpuKnown && total.requests > 0 ? total.cpu / total.requests : null,
      bytesPerRequest: total.requests > 0 ? total.bytes / total.requests : 0,
      failures: total.failures,
    };
  });
}

/**
 * Prints the results. Two ratios to the bare server: measured requests/s, and capacity — the
 * requests/s one core would serve at the measured server CPU time per request. On a small
 * machine the load generator shares the cores and can saturate first, which flattens the first
 * ratio towards 1; the second does not depend on who saturates.
 */
function printTable(rows: Measurement[]): void {
  const byName = new Map(rows.map((row) => [row.target.name, row]));
  const capacity = (row: Measurement): number | null =>
    row.cpuMicrosPerRequest === null || row.cpuMicrosPerRequest === 0
      ? null
      : 1_000_000 / row.cpuMicrosPerRequest;
  const ratio = (a: number | null, b: number | null): string =>
    a === null || b === null ? '' : `${(a / b).toFixed(2)}×`;
  const lines = [
    [
      'target',
      'requests/s',
      'p99 ms',
      'bytes/req',
      'failures',
      'server CPU µs/req',
      'capacity req/s/core',
      'vs baseline (req/s)',
      'vs baseline (capacity)',
    ],
  ];
  for (const row of rows) {
    const baseline =
      row.target.baseline === undefined ? undefined : byName.get(row.target.baseline);
    lines.push([
      row.target.name,
      row.requestsPerSecond.toFixed(0),
      row.p99Ms.toFixed(1),
      row.bytesPerRequest.toFixed(0),
      String(row.failures),
      row.cpuMicrosPerRequest === null ? 'n/a' : row.cpuMicrosPerRequest.toFixed(1),
      capacity(row)?.toFixed(0) ?? 'n/a',
      baseline ? ratio(row.requestsPerSecond, baseline.requestsPerSecond) : '',
      baseline ? ratio(capacity(row), capacity(baseline)) : '',
    ]);
  }
  const widths = lines[0]!.map((_, column) =>
    Math.max(...lines.map((line) => line[column]!.length)),
  );
  for (const line of lines) {
    process.stdout.write(
      `${line.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')}\n`,
    );
  }
}

async function main(): Promise<void> {
  try {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const env = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: baseUrl,
      DEMO_DATA: 'off',
      // As deployed: info level, so the access line (ACCESS_LOG, on by default) is part of the cost.
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    };

    process.stderr.write(`Generating demo data (scale ${options.scale}) in ${dataDir}…\n`);
    const runtime = await openRuntime(loadConfig(env));
    let apiKey: string;
    let matchPath: string;
    let playerPath: string;
    try {
      const started = Date.now();
      const demo = await populateDemo(runtime, {
        seed: options.seed,
        scale: options.scale,
        now: runtime.clock.now(),
        progress: false,
      });
      process.stderr.write(
        `  ${demo.matches} matches, ${demo.players} players in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
      );
      ({ key: apiKey } = await createApiKey(runtime.store.db, {
        name: 'bench',
        ratePerMinute: 1_000_000_000,
        now: runtime.clock.now(),
      }));
      // The busiest kind of match: the newest non-custom one with the most participants.
      const match = await runtime.store.db
        .selectFrom('matches')
        .innerJoin('participants', 'participants.match_id', 'matches.id')
        .select(['matches.id', 'matches.platform'])
        .select((eb) => eb.fn.countAll<number>().as('participants'))
        .where('matches.is_custom', '=', 0)
        .groupBy(['matches.id', 'matches.platform', 'matches.created_at'])
        .orderBy('participants', 'desc')
        .orderBy('matches.created_at', 'desc')
        .executeTakeFirstOrThrow();
      const player = await runtime.store.db
        .selectFrom('player_matches')
        .innerJoin('players', (join) =>
          join
            .onRef('players.platform', '=', 'player_matches.platform')
            .onRef('players.account_id', '=', 'player_matches.account_id'),
        )
        .select(['players.name', 'players.platform'])
        .where('player_matches.match_id', '=', match.id)
        .executeTakeFirstOrThrow();
      matchPath = `/shards/${match.platform}/matches/${match.id}`;
      playerPath = `/shards/${player.platform}/players?filter[playerNames]=${encodeURIComponent(player.name)}`;
    } finally {
      await runtime.close();
    }

    const serverArgs = [
      ...(options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProf)}`] : []),
      path.join(ROOT, 'src/main.ts'),
      'serve',
    ];
    // The server's JSON log lines go to a file, as they would to a log collector.
    const server = startChild(serverArgs, env, fs.openSync(path.join(dataDir, 'server.log'), 'a'));
    await waitUntilUp(`${baseUrl}/status`, server, 60_000);
    // The same data and public URL (so the same rendered match), without metrics or jobs.
    const unmeteredPort = await freePort();
    const unmetered = startChild([path.join(ROOT, 'src/main.ts'), 'serve'], {
      ...env,
      PORT: String(unmeteredPort),
      METRICS: 'off',
      JOBS: 'off',
    });
    const unmeteredUrl = `http://127.0.0.1:${unmeteredPort}`;
    await waitUntilUp(`${unmeteredUrl}/status`, unmetered, 60_000);

    const gzipHeaders = { accept: 'application/vnd.api+json', 'accept-encoding': 'gzip' };
    const keyHeaders = { ...gzipHeaders, authorization: `Bearer ${apiKey}` };
    const manifest: Array<{ path: string; headers: Record<string, string>; file: string }> = [];
    for (const [name, urlPath, headers] of [
      ['match', matchPath, gzipHeaders],
      ['player', playerPath, keyHeaders],
    ] as const) {
      const response = await getRaw(baseUrl + urlPath, headers);
      if (response.status !== 200) {
        throw new Error(
          `GET ${urlPath} answered ${response.status}: ${response.body.toString().slice(0, 300)}`,
        );
      }
      const file = path.join(dataDir, `${name}.body`);
      fs.writeFileSync(file, response.body);
      manifest.push({ path: urlPath, headers: replayableHeaders(response.headers), file });
      process.stderr.write(
        `  ${name}: ${response.body.length} bytes as served (${response.headers['content-encoding'] ?? 'identity'})\n`,
      );
    }
    const manifestFile = path.join(dataDir, 'bare-manifest.json');
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
    const bare = await startBareServer(manifestFile);
    const barePort = bare.port;
    const bareUrl = `http://127.0.0.1:${barePort}`;

    const targets: Target[] = [
      {
        name: 'bare node:http, match bytes',
        pid: bare.pid,
        url: bareUrl + matchPath,
        headers: gzipHeaders,
      },
      {
        name: 'match (gzip)',
        pid: server.pid!,
        url: baseUrl + matchPath,
        headers: gzipHeaders,
        baseline: 'bare node:http, match bytes',
      },
      {
        name: 'bare node:http, player bytes',
        pid: bare.pid,
        url: bareUrl + playerPath,
        headers: keyHeaders,
      },
      {
        name: 'player by name (gzip, key)',
        pid: server.pid!,
        url: baseUrl + playerPath,
        headers: keyHeaders,
        baseline: 'bare node:http, player bytes',
      },
    ];
    const metricsTargets: Target[] = [
      {
        name: 'match (gzip), METRICS=off',
        pid: unmetered.pid!,
        url: unmeteredUrl + matchPath,
        headers: gzipHeaders,
      },
      {
        name: 'match (gzip), METRICS=on',
        pid: server.pid!,
        url: baseUrl + matchPath,
        headers: gzipHeaders,
        baseline: 'match (gzip), METRICS=off',
      },
    ];
    const groups: Record<(typeof GROUPS)[number], Target[]> = {
      match: targets.slice(0, 2),
      player: targets.slice(2, 4),
      metrics: metricsTargets,
    };
    process.stderr.write(`Loading: ${options.connections} connections, pipelining 1\n`);
    const results: Measurement[] = [];
    for (const name of GROUPS) {
      if (options.groups.includes(name)) results.push(...(await measureGroup(groups[name])));
    }
    await stopChildren();
    process.stdout.write('\n');
    printTable(results);
  } finally {
    await stopChildren();
  }
}

const timeout = setTimeout(() => {
  process.stderr.write(`bench: gave up after ${options.timeout} s\n`);
  process.exit(1);
}, options.timeout * 1000);
timeout.unref();

try {
  await main();
} catch (error) {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
