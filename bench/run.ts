/**
 * `npm run bench`: measures what issue 10 asks of the service, in one run, and prints it as
 * Markdown (tables for the README) with the machine and the date:
 *
 * 1. serving — every endpoint, hot (one path) and spread (many), loaded by wrk against a bare
 *    node:http server replaying the very same bytes and headers, in alternating slices;
 *    variants (the service with other settings) against the service itself;
 * 2. jobs under load — latency of requests while each job runs, against the same load without;
 * 3. ingest — matches per CPU-second of the library, CLI, HTTP and demo paths against the floor
 *    (parsing the input and gzipping the telemetry once);
 * 4. store size — bytes on disk per match and per player, by table.
 *
 * Progress goes to stderr, results to stdout (and `--json`). Every child process is stopped
 * however the bench ends, and the whole run is bounded by `--timeout`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareBenchData } from './bench-data.ts';
import { buildService } from './built.ts';
import { createChildRegistry, hasTaskset, pinSelf, planPinning } from './children.ts';
import { measureIngest, type IngestReport } from './ingest-report.ts';
import { ingestTable } from './ingest-table.ts';
import { measureJobsUnderLoad, type JobRow } from './jobs-under-load.ts';
import { jobsTable } from './jobs-table.ts';
import { RSS_GOAL_BYTES, RSS_SAMPLE_MS } from './memory.ts';
import { parseBenchOptions } from './options.ts';
import { machineInfo, machineLine, servingTable } from './report.ts';
import { measureServing, type RowResult } from './serving.ts';
import { measureStoreSize, storeSizeTable, type StoreSize } from './store-size.ts';
import { wrkVersion } from './wrk.ts';

const options = parseBenchOptions(process.argv.slice(2));
const children = createChildRegistry();
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-bench-run-'));
const log = (line: string): void => void process.stderr.write(`${line}\n`);

// Last resort for every way out that skips the orderly stop (exceptions, signals, the timeout).
process.on('exit', () => {
  children.killAll();
  fs.rmSync(workDir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => process.exit(130));
}
setTimeout(() => {
  log(`bench: gave up after ${options.timeout} s; every child process is stopped`);
  process.exit(1);
}, options.timeout * 1000).unref();

interface BenchResults {
  machine: ReturnType<typeof machineInfo>;
  settings: Record<string, unknown>;
  pinning: string;
  /** The serving data set; null when nothing measured needed it. */
  data: { scale: number; seed: number; matches: number; players: number } | null;
  serving: RowResult[];
  jobs: JobRow[];
  ingest: IngestReport | null;
  storeSize: StoreSize[];
  notes: string[];
}

async function main(): Promise<void> {
  const wrk = wrkVersion();
  if (wrk === null) throw new Error('wrk is not installed (Debian/Ubuntu: apt-get install wrk)');
  const machine = machineInfo(wrk);
  const pinning = planPinning(os.cpus().length, options.pin, hasTaskset());
  const notes: string[] = [];
  if (pinning.load !== null) {
    try {
      pinSelf(pinning.load);
    } catch {
      notes.push('the bench process itself could not be pinned (taskset -p refused)');
    }
  }

  // Every process the bench measures runs the service as built, as `npm start` does.
  buildService(log);
  const serving = options.only === null || options.only.size > 0;
  // Generating the serving data set costs minutes of CPU after any change under src/: an ingest
  // run alone (`--only none --jobs none --skip-store-size`) needs none of it.
  const data =
    serving || options.jobs.length > 0 || !options.skipStoreSize
      ? await prepareBenchData({
          cacheDir: options.dataDir,
          seed: options.seed,
          scale: options.scale,
          players: options.players,
          reuseAny: options.reuseData,
          log,
        })
      : null;
  const load = {
    connections: options.connections,
    threads: options.threads,
    duration: options.duration,
    slices: options.slices,
    warmup: options.warmup,
    cpus: pinning.load,
  };
  const results: BenchResults = {
    machine,
    settings: {
      ...options,
      only: options.only && [...options.only],
      // A database URL may hold a password.
      databaseUrl: options.databaseUrl && '(given)',
    },
    pinning: pinning.description,
    data: data && {
      scale: options.scale,
      seed: options.seed,
      matches: data.matches,
      players: data.players,
    },
    serving: [],
    jobs: [],
    ingest: null,
    storeSize: [],
    notes,
  };

  if (serving && data) {
    results.serving = await measureServing(
      children,
      {
        dataDir: data.dir,
        apiKey: data.apiKey,
        only: options.only,
        modes: options.mode === 'both' ? ['hot', 'spread'] : [options.mode],
        spread: options.spread,
        encoding: options.encoding,
        load,
        serverCpus: pinning.servers,
        cpuProfDir: options.cpuProf,
        workDir,
        log,
      },
      notes,
    );
    const peak = peakServiceRss(results.serving);
    if (peak !== null) {
      notes.push(
        `the service's largest RSS over the serving rows (sampled every ${RSS_SAMPLE_MS} ms while ` +
          `each row was measured; with the pages only its worker processes hold): ` +
          `${(peak / 1_000_000).toFixed(0)} MB ` +
          `(goal < ${RSS_GOAL_BYTES / 1_000_000} MB ${peak < RSS_GOAL_BYTES ? '✓' : '✗'})`,
      );
    }
  }
  if (options.jobs.length > 0 && data) {
    results.jobs = await measureJobsUnderLoad(children, {
      data,
      seed: options.seed,
      jobs: options.jobs,
      windowSeconds: options.jobWindow,
      connections: options.connections,
      threads: options.threads,
      encoding: options.encoding,
      pinning,
      workDir,
      cpuProfDir: options.cpuProf,
      log,
    });
  }
  if (!options.skipIngest) {
    results.ingest = await measureIngest(children, {
      matches: options.ingestMatches,
      demoScale: options.ingestDemoScale,
      parts: options.ingestParts,
      seed: options.seed,
      serverCpus: pinning.servers,
      everyCpu: pinning.every,
      cpuProfDir: options.cpuProf,
      workDir,
      log,
    });
    notes.push(...results.ingest.notes);
  }
  if (!options.skipStoreSize && data) {
    results.storeSize = await measureStoreSize(children, {
      data,
      seed: options.seed,
      scale: options.scale,
      players: options.players,
      databaseUrl: options.databaseUrl,
      log,
    });
  }
  machine.loadAfter = os.loadavg();

  const grown = options.players === undefined ? '' : ' (grown with twins of the demo players)';
  const store = data
    ? `Store: demo scale ${options.scale} (seed ${options.seed}), ${data.matches} matches, ${data.players} players${grown}. `
    : '';
  const out: string[] = [
    `## npm run bench — ${machineLine(machine)}`,
    '',
    store +
      `wrk: ${options.threads} thread, ${options.connections} connections, Accept-Encoding: ${options.encoding}; ` +
      `per row ${options.slices} alternating slices of ${Math.max(1, Math.round(options.duration / options.slices))} s per side after ${options.warmup} s of warm-up (3 s more before a server's first row). ` +
      `Pinning: ${pinning.description}.`,
  ];
  if (results.serving.length > 0) out.push('', '### Serving', '', servingTable(results.serving));
  if (results.jobs.length > 0) out.push('', '### Jobs under load', '', jobsTable(results.jobs));
  if (results.ingest) out.push('', '### Ingest', '', ingestTable(results.ingest));
  if (results.storeSize.length > 0) {
    out.push('', '### Store size', '', ...results.storeSize.map(storeSizeTable));
  }
  if (notes.length > 0) out.push('', '### Notes', '', ...notes.map((note) => `- ${note}`));
  process.stdout.write(`\n${out.join('\n')}\n`);
  if (options.json) {
    fs.writeFileSync(options.json, `${JSON.stringify(results, null, 2)}\n`);
    log(`Results written to ${options.json}`);
  }
}

/** The largest RSS of the service as deployed (not its variants) over the serving rows. */
function peakServiceRss(rows: readonly RowResult[]): number | null {
  let peak: number | null = null;
  for (const row of rows) {
    for (const side of [row.subject, row.baseline]) {
      if (side.server !== 'service' || side.peakRssBytes === null) continue;
      peak = Math.max(peak ?? 0, side.peakRssBytes);
    }
  }
  return peak;
}

try {
  await main();
} catch (error) {
  log(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  await children.stopAll();
}
