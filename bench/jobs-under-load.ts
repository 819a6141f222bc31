/**
 * "No job ever stalls serving" (issue 10, item 4), measured: a steady wrk load on player
 * lookups plus an open-loop latency probe over several endpoints, first for a window without a
 * job, then while one job runs — in the server's own process (as `serve`'s scheduler runs it,
 * see job-server.ts) and in another process (`gamedata jobs run`, as a second instance or cron
 * would). Runs on a scratch copy of the bench data, since jobs purge and rebuild; retention
 * runs one and two days ahead so that it has matches to delete.
 */
import path from 'node:path';
import readline from 'node:readline';
import { dataDirEnv, scratchCopy, type BenchData } from './bench-data.ts';
import { exitOf, stopChild, type ChildRegistry, type Pinning } from './children.ts';
import { discoverPaths } from './discover-paths.ts';
import { P99_GOAL_MS } from './endpoint-catalogue.ts';
import { startProbe, summariseProbe, type LatencySummary } from './latency-probe.ts';
import { count, latencyCell, markdownTable } from './report.ts';
import { ROOT, startService, type RunningServer } from './servers.ts';
import { startWrk, type WrkLoad } from './wrk.ts';

export interface JobsOptions {
  data: BenchData;
  jobs: readonly string[];
  windowSeconds: number;
  connections: number;
  threads: number;
  encoding: 'gzip' | 'identity';
  pinning: Pinning;
  workDir: string;
  log: (line: string) => void;
}

export interface JobRow {
  job: string;
  where: 'in the server' | 'another process';
  seconds: number;
  outcome: string;
  without: LatencySummary;
  during: LatencySummary;
  /** wrk's requests/s without the job, and over the phase the job ran in. */
  wrkWithout: number;
  wrkDuring: number;
}

const PROBES_PER_SECOND = 100;
const DAY_MS = 86_400_000;

type Trigger = (job: string, now: number) => Promise<{ seconds: number; outcome: string }>;

export async function measureJobsUnderLoad(
  children: ChildRegistry,
  options: JobsOptions,
): Promise<JobRow[]> {
  const dir = scratchCopy(options.data, path.join(options.workDir, 'jobs-data'));
  const rows: JobRow[] = [];
  const cpus = options.pinning.servers;

  options.log('Jobs under load: in the server process');
  const jobServer = await startService(children, {
    label: 'job server',
    dataDir: dir,
    cpus,
    script: [path.join(ROOT, 'bench/job-server.ts')],
    stdout: 'pipe',
  });
  const replies = readline.createInterface({ input: jobServer.child.stdout! });
  const inServer: Trigger = (job, now) =>
    new Promise((resolve) => {
      const onLine = (line: string): void => {
        if (!line.startsWith('JOB ')) return;
        const reply = JSON.parse(line.slice(4)) as { name: string; ms: number; outcome: string };
        if (reply.name !== job) return;
        replies.off('line', onLine);
        resolve({ seconds: reply.ms / 1000, outcome: reply.outcome });
      };
      replies.on('line', onLine);
      jobServer.child.stdin!.write(`run ${job} ${now}\n`);
    });
  const inServerTarget = await targetOf(jobServer, options);
  for (const job of options.jobs) {
    rows.push(
      await measureJob(children, inServerTarget, job, 'in the server', inServer, 1, options),
    );
  }
  await stopChild(jobServer.child);

  options.log('Jobs under load: in another process (gamedata jobs run)');
  const service = await startService(children, { label: 'service', dataDir: dir, cpus });
  const elsewhere: Trigger = async (job, now) => {
    const started = performance.now();
    const child = children.spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'src/main.ts'),
        'jobs',
        'run',
        job,
        '--now',
        new Date(now).toISOString(),
      ],
      {
        cwd: ROOT,
        cpus,
        env: { ...process.env, ...dataDirEnv(dir) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await exitOf(child);
    const outcome = output.trim().split('\n').pop() ?? '';
    return {
      seconds: (performance.now() - started) / 1000,
      outcome: code === 0 ? outcome : `exit ${code}: ${outcome}`,
    };
  };
  const serviceTarget = await targetOf(service, options);
  for (const job of options.jobs) {
    rows.push(
      await measureJob(children, serviceTarget, job, 'another process', elsewhere, 2, options),
    );
  }
  await stopChild(service.child);
  return rows;
}

interface Target {
  server: RunningServer;
  load: WrkLoad;
  probePaths: string[];
  headers: Record<string, string>;
}

/** The steady load (player lookups by name, spread) and the probed paths, on one server. */
async function targetOf(server: RunningServer, options: JobsOptions): Promise<Target> {
  const { apiKey } = options.data;
  const found = await discoverPaths(server.origin, apiKey, 20);
  const first = (id: string): string[] => (found.paths.get(id) ?? []).slice(0, 1);
  const headers = {
    accept: 'application/vnd.api+json',
    'accept-encoding': options.encoding,
    authorization: `Bearer ${apiKey}`,
  };
  const probePaths = [
    '/status',
    ...['match', 'player-name', 'leaderboard', 'samples', 'season-stats'].flatMap(first),
  ];
  const load: WrkLoad = {
    origin: server.origin,
    paths: (found.paths.get('player-name') ?? []).slice(0, 100),
    headers,
    connections: options.connections,
    threads: options.threads,
    cpus: options.pinning.load,
  };
  if (load.paths.length === 0) throw new Error('jobs under load: no player to look up');
  return { server, load, probePaths, headers };
}

async function measureJob(
  children: ChildRegistry,
  target: Target,
  job: string,
  where: JobRow['where'],
  trigger: Trigger,
  retentionDaysAhead: number,
  options: JobsOptions,
): Promise<JobRow> {
  const { server, load, probePaths, headers } = target;
  const quiet = startWrk(children, load, options.windowSeconds);
  const quietProbe = startProbe(server.origin, probePaths, headers, PROBES_PER_SECOND);
  const quietLoad = await quiet.result;
  const without = summariseProbe(await quietProbe.stop());

  const busy = startWrk(children, load, 3600);
  const probe = startProbe(server.origin, probePaths, headers, PROBES_PER_SECOND);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const now = Date.now() + (job === 'retention' ? retentionDaysAhead * DAY_MS : 0);
  const jobStart = performance.now();
  const ran = await trigger(job, now);
  const jobEnd = performance.now();
  const busyLoad = await busy.stop();
  const during = summariseProbe(await probe.stop(), jobStart, jobEnd);
  options.log(
    `  ${job} (${where}): ${ran.seconds.toFixed(2)} s, p99 ${during.p99Ms.toFixed(1)} ms — ${ran.outcome}`,
  );
  return {
    job,
    where,
    seconds: ran.seconds,
    outcome: ran.outcome,
    without,
    during,
    wrkWithout: quietLoad.requests / quietLoad.seconds,
    wrkDuring: busyLoad.requests / busyLoad.seconds,
  };
}

export function jobsTable(rows: readonly JobRow[]): string {
  return (
    markdownTable(
      [
        'job',
        'runs',
        'job s',
        'probes during',
        'p99 ms without',
        'p99 ms during',
        'max ms without',
        'max ms during',
        'wrk req/s without',
        'wrk req/s around the job',
      ],
      rows.map((row) => [
        row.job,
        row.where,
        row.seconds.toFixed(2),
        String(row.during.requests),
        latencyCell(row.without.p99Ms),
        latencyCell(row.during.p99Ms),
        latencyCell(row.without.maxMs, null),
        latencyCell(row.during.maxMs, null),
        count(row.wrkWithout),
        count(row.wrkDuring),
      ]),
    ) +
    `\n\nGoal: p99 < ${P99_GOAL_MS} ms while any job runs. Latency from an open-loop probe ` +
    `(${PROBES_PER_SECOND} requests/s over several endpoints, each timed from when it was due) beside ` +
    `wrk's steady load on player lookups; "another process" times \`gamedata jobs run\` from spawn to exit.`
  );
}
