/**
 * "No job ever stalls serving" (issue 10, item 4), measured: a steady wrk load on player
 * lookups plus an open-loop latency probe over several endpoints, first for a window without a
 * job, then while one job runs — in the server's own process (where `serve` runs them) and in
 * another process (`gamedata jobs run`). The steady load is paced at `STEADY_SHARE` of what
 * the warm server answers flat out: a server kept at 100 % of its core by a
 * closed loop has no idle CPU for a job to take, so every job — whatever its priority — would
 * show as a stall, and a job at the lowest priority would never end. Runs on a scratch copy of the bench data, since jobs
 * purge and rebuild. Retention runs ahead of the server's clock so that it has matches to delete:
 * "early" a day (in the server) or three (another process) ahead, deleting matches the server
 * still lists, as a purge ahead of the readers' clocks would, and "on time" in the server with
 * the server's clock set two days ahead as well, so it deletes what the server has seen leave
 * the window, as the hourly purge does. A job shorter than the window runs again until the
 * window is filled (`runs`).
 */
import path from 'node:path';
import { scratchCopy, type BenchData } from './bench-data.ts';
import { stopChild, type ChildRegistry, type Pinning } from './children.ts';
import { discoverPaths } from './discover-paths.ts';
import { cliTrigger, inServerControl, type JobTrigger } from './job-triggers.ts';
import { postingTrigger } from './posting-trigger.ts';
import { startProbe, summariseProbe, type LatencySummary } from './latency-probe.ts';
import { watchRss } from './memory.ts';
import { ROOT } from './project-root.ts';
import { startService, type RunningServer } from './servers.ts';
import { startWrk, type WrkLoad } from './wrk.ts';
import { percentileOf } from './wrk-output.ts';

export interface JobsOptions {
  data: BenchData;
  /** The demo seed of `data`: the matches posted by the `ingest` row are of another. */
  seed: number;
  jobs: readonly string[];
  windowSeconds: number;
  connections: number;
  threads: number;
  encoding: 'gzip' | 'identity';
  pinning: Pinning;
  workDir: string;
  /** Write V8 CPU profiles of the servers (and their job threads) into this directory. */
  cpuProfDir?: string | undefined;
  log: (line: string) => void;
}

/** wrk's steady load over one phase. */
export interface SteadyLoad {
  requestsPerSecond: number;
  p99Ms: number;
}

export interface JobRow {
  job: string;
  where: 'in the server' | 'another process' | 'posted to the server';
  /** Wall-clock seconds of the first run (the one with work to do). */
  seconds: number;
  /** Runs within the measured window. */
  runs: number;
  outcome: string;
  /** The probe without a job, and over the time the job ran. */
  without: LatencySummary;
  during: LatencySummary;
  /** wrk without the job, and over the phase the job ran in (from just before to its end). */
  loadWithout: SteadyLoad;
  loadDuring: SteadyLoad;
  /** The serving process's largest resident set while the job ran, bytes; null without procfs. */
  serverRssBytes: number | null;
}

/** Probe requests a second, open loop. */
export const PROBES_PER_SECOND = 50;
/** The steady load, as a share of the server's flat-out rate on the same requests. */
export const STEADY_SHARE = 0.6;
const WARMUP_SECONDS = 2;
/**
 * Repeats of a short job within one window, at most: only a guard against a job that ends at
 * once. It must not end the window early — seasons (~6 ms a run) stopped after 50 runs filled a
 * tenth of it, so its "p99" was the slowest of ~15 probes while the row without a job took the
 * p99 of ~150: a single hiccup of the machine then read as the job's stall.
 */
const MAX_RUNS = 10_000;
const DAY_MS = 86_400_000;
/** Days ahead of the system's clock at which both the job server and its purge run "on time". */
const ON_TIME_DAYS_AHEAD = 2;

export async function measureJobsUnderLoad(
  children: ChildRegistry,
  options: JobsOptions,
): Promise<JobRow[]> {
  const dir = scratchCopy(options.data, path.join(options.workDir, 'jobs-data'));
  const cpus = options.pinning.servers;
  const rows: JobRow[] = [];
  /** Jobs as such: `ingest` is matches posted to the service (posting-trigger.ts). */
  const jobs = options.jobs.filter((job) => job !== 'ingest');
  const runAll = async (
    server: RunningServer,
    where: JobRow['where'],
    trigger: JobTrigger,
    daysAhead: number,
    posted: JobTrigger | null = null,
    more: ((target: Target) => Promise<void>) | null = null,
  ): Promise<void> => {
    options.log(`Jobs under load: ${where}`);
    const target = await targetOf(server, options);
    // Its pace, once per server: warm first (a cold server answers a fraction of its rate).
    await startWrk(children, target.load, WARMUP_SECONDS).result;
    const flatOut = await startWrk(children, target.load, WARMUP_SECONDS).result;
    target.load = pacedLoad(target.load, flatOut.requests / flatOut.seconds);
    options.log(`  steady load: ${target.load.delayMs} ms between requests per connection`);
    for (const job of jobs) {
      const now = Date.now() + (job === 'retention' ? daysAhead * DAY_MS : 0);
      const label = job === 'retention' ? 'retention, early' : job;
      rows.push(await measureJob(children, target, label, where, () => trigger(job, now), options));
    }
    await more?.(target);
    if (posted !== null) {
      const at = Date.now();
      const row = () => posted('ingest', at);
      rows.push(await measureJob(children, target, 'ingest', 'posted to the server', row, options));
    }
    await stopChild(server.child);
  };

  const jobServer = await startService(children, {
    label: 'job server',
    dataDir: dir,
    cpus,
    script: [path.join(ROOT, 'bench/job-server.ts')],
    stdout: 'pipe',
    cpuProfDir: options.cpuProfDir,
  });
  const control = inServerControl(jobServer);
  const onTime = async (target: Target): Promise<void> => {
    if (!jobs.includes('retention')) return;
    // Two days on for the server as well: the matches the purge deletes have left what it lists
    // (the renderings that listed them ended as they left, during the warm-up before the job).
    await control.setClockAhead(ON_TIME_DAYS_AHEAD * DAY_MS);
    const now = Date.now() + ON_TIME_DAYS_AHEAD * DAY_MS;
    const run = () => control.trigger('retention', now);
    rows.push(
      await measureJob(children, target, 'retention, on time', 'in the server', run, options),
    );
  };
  await runAll(jobServer, 'in the server', control.trigger, 1, null, onTime);
  const service = await startService(children, {
    label: 'service',
    dataDir: dir,
    cpus,
    stdout: { file: path.join(options.workDir, 'jobs-service.log') },
    cpuProfDir: options.cpuProfDir,
  });
  // Posted last: the matches it adds are no part of what the other rows measure.
  const posted = options.jobs.includes('ingest')
    ? await postingTrigger(children, service.origin, {
        dataDir: dir,
        workDir: options.workDir,
        seed: options.seed + 1,
        cpus: options.pinning.load,
      })
    : null;
  await runAll(service, 'another process', cliTrigger(children, dir, cpus), 3, posted);
  return rows;
}

interface Target {
  /** The serving process (its memory is watched). */
  pid: number;
  /** Paced once measured (see STEADY_SHARE). */
  load: WrkLoad;
  probePaths: string[];
}

/** The steady load (player lookups by name, spread) and the probed paths, on one server. */
async function targetOf(server: RunningServer, options: JobsOptions): Promise<Target> {
  const { apiKey } = options.data;
  const found = await discoverPaths(server.origin, apiKey, 20);
  const first = (id: string): string[] => (found.paths.get(id) ?? []).slice(0, 1);
  const load: WrkLoad = {
    origin: server.origin,
    paths: (found.paths.get('player-name') ?? []).slice(0, 100),
    headers: {
      accept: 'application/vnd.api+json',
      'accept-encoding': options.encoding,
      authorization: `Bearer ${apiKey}`,
    },
    connections: options.connections,
    threads: options.threads,
    cpus: options.pinning.load,
  };
  if (load.paths.length === 0) throw new Error('jobs under load: no player to look up');
  const probed = ['match', 'player-name', 'leaderboard', 'samples', 'season-stats'];
  return { pid: server.pid, load, probePaths: ['/status', ...probed.flatMap(first)] };
}

async function measureJob(
  children: ChildRegistry,
  { pid, load, probePaths }: Target,
  job: string,
  where: JobRow['where'],
  run: () => ReturnType<JobTrigger>,
  options: JobsOptions,
): Promise<JobRow> {
  const probe = (): ReturnType<typeof startProbe> =>
    startProbe(load.origin, probePaths, load.headers, PROBES_PER_SECOND);

  // Unmeasured first: a cold server (JIT, caches, a rebuilt leaderboard) answers slowly for a
  // second or two, and an open-loop probe would pile up behind that.
  const warming = probe();
  await startWrk(children, load, WARMUP_SECONDS).result;
  await warming.stop();

  const quiet = startWrk(children, load, options.windowSeconds);
  const quietProbe = probe();
  const quietLoad = await quiet.result;
  const without = summariseProbe(await quietProbe.stop());

  const busy = startWrk(children, load, 3600);
  const busyProbe = probe();
  const memory = watchRss(pid);
  await new Promise((resolve) => setTimeout(resolve, 300));
  // A short job runs again until the window is filled, so enough probes fall within a run.
  const jobStart = performance.now();
  const ran = await run();
  let runs = 1;
  for (; runs < MAX_RUNS && performance.now() - jobStart < options.windowSeconds * 1000; runs++) {
    await run();
  }
  const jobEnd = performance.now();
  const serverRssBytes = memory.stop();
  const busyLoad = await busy.stop();
  const during = summariseProbe(await busyProbe.stop(), jobStart, jobEnd);
  options.log(
    `  ${job}: ${ran.seconds.toFixed(2)} s (${runs} runs), probe p99 ${during.p99Ms.toFixed(1)} ms; ${ran.outcome}`,
  );
  const slow = during.slowest.map(
    (s) => `${s.latencyMs.toFixed(1)} ms ${s.path} at +${Math.round(s.sentAfterMs)} ms`,
  );
  options.log(`    slowest probes: ${slow.join('; ')}`);
  const steady = (r: typeof quietLoad): SteadyLoad => ({
    requestsPerSecond: r.requests / r.seconds,
    p99Ms: percentileOf(r.latency, 99),
  });
  return {
    job,
    where,
    seconds: ran.seconds,
    runs,
    outcome: ran.outcome,
    without,
    during,
    loadWithout: steady(quietLoad),
    loadDuring: steady(busyLoad),
    serverRssBytes,
  };
}

/** `load` paced to STEADY_SHARE of `flatOutPerSecond`: each connection waits between requests. */
function pacedLoad(load: WrkLoad, flatOutPerSecond: number): WrkLoad {
  const perConnection = (STEADY_SHARE * flatOutPerSecond) / load.connections;
  return { ...load, delayMs: Math.max(1, Math.round(1000 / perConnection)) };
}
