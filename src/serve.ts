/**
 * `gamedata serve`: the API and its scheduled jobs in one process, until a stop signal. Loaded
 * by src/main.ts only when the command serves, so other commands never load the HTTP app, the
 * jobs, the mirror or the metrics.
 *
 * While serving, stdout carries JSON log lines only (pino); what people read — the banner with
 * the demo key, progress bars, the demo's summary — goes to stderr.
 */
import os from 'node:os';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import { ingestWorkersOf, type Config } from './config.ts';
import { ensureDemoApiKey, isStoreEmpty } from './cli/demo-key.ts';
import { openRuntime, type Runtime } from './runtime.ts';
import { systemClock } from './clock.ts';
import { demoRunToServe, loadDemo } from './demo/load-demo.ts';
import { drainableServer, type ServerDrain } from './http/drain-server.ts';
import { JOBS } from './jobs/index.ts';
import { startScheduler, type JobDeps, type Scheduler } from './jobs/scheduler.ts';
import { createJobProgress, type JobProgress } from './jobs/job-progress.ts';
import {
  canRunInThread,
  inProcessRunner,
  pollingAfterRuns,
  threadRunner,
} from './jobs/job-thread-runner.ts';
import { createChangeFeed, type ChangeFeed } from './store/change-feed.ts';
import { observedBlobStore } from './blobs/observed-blob-store.ts';
import { createMirror } from './upstream/mirror.ts';
import { mirrorCrawlJob } from './jobs/mirror-crawl.ts';
import { createServingLogger } from './logger.ts';
import { keepTickShapes } from './tick-shapes.ts';
import { openPreparePool, type PreparePool } from './ingest/prepare-pool.ts';

/** How often the scheduler looks for due jobs. */
const JOB_TICK_MS = 60_000;
/** What closing the store and Redis may take once the grace period is over. */
const CLOSE_POOLS_MS = 2_000;

const stopped = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

/** Loads the demo data before serving when DEMO_DATA=auto: a new store, or an interrupted load. */
async function loadDemoIfDue(runtime: Runtime, log: Logger, stop: AbortSignal): Promise<void> {
  const { config } = runtime;
  if (config.demoData !== 'auto') return;
  const run = await demoRunToServe(runtime, {
    seed: config.demoSeed,
    storeIsEmpty: await isStoreEmpty(runtime),
  });
  if (run === null) return;
  const at = new Date(run.now).toISOString();
  process.stderr.write(
    run.recorded
      ? `Completing the interrupted demo load (seed ${run.seed}, --now ${at})…\n`
      : 'The store is empty: generating the demo data set (DEMO_DATA=off to skip)…\n',
  );
  log.info({ seed: run.seed, scale: run.scale, now: at, resumed: run.recorded }, 'demo load');
  const summary = await loadDemo(runtime, run, {
    progress: process.stderr.isTTY === true,
    signal: stop,
  });
  log.info(summary, summary.interrupted ? 'demo load interrupted' : 'demo load complete');
  process.stderr.write(
    `Demo data: ${summary.ingested + summary.duplicates} of ${summary.matches} matches, ${summary.players} players in ${(summary.ms / 1000).toFixed(1)} s\n`,
  );
}

/**
 * Serves until `stopSignal()` is aborted, then drains requests and jobs within the grace period
 * and exits the process.
 */
export async function serve(
  config: Readonly<Config>,
  stopSignal: () => AbortSignal,
): Promise<void> {
  const stop = stopSignal();
  // Before any request: keeps the allocation of nextTick entries cheap (src/tick-shapes.ts).
  const releaseTickShapes = keepTickShapes();
  const logger = createServingLogger(config);
  const { log } = logger;
  // Database availability lines (start-up retries, outages) are log lines like any other.
  const opening = openRuntime(config, systemClock, {
    warn: (message) => log.warn(message),
    info: (message) => log.info(message),
  });
  const runtime = await Promise.race([opening, stopped(stop).then(() => null)]);
  if (runtime === null) process.exit(0);

  let drain: ServerDrain | null = null;
  let scheduler: Scheduler | null = null;
  let crawler: Scheduler | null = null;
  let runner = inProcessRunner;
  let changes: ChangeFeed | null = null;
  // SQLite's log is copied into the database file by a thread of its own, not by a commit of
  // the serving thread, lowered like the ingest workers whose writes it mostly copies.
  const stopCheckpoints =
    runtime.store.checkpointInBackground?.({ nice: config.ingestNice }) ?? null;
  // Its workers start with the service, while nothing is served yet (see PreparePool.start),
  // and load their ingest code at the first match posted. They store the matches too, on
  // connections of their own, from processes of their own lowered whole (prepare-process.ts);
  // a database in memory, which only this connection sees, leaves the storing here and the
  // workers threads.
  const ingestWorkers = ingestWorkersOf(config, 'serve');
  const inMemory = config.databaseUrl.includes(':memory:');
  const ingestPool: PreparePool | null =
    ingestWorkers > 0
      ? openPreparePool(
          ingestWorkers,
          config,
          config.ingestNice,
          inMemory ? null : { config },
          inMemory ? 'thread' : 'process',
        )
      : null;
  ingestPool?.start();
  try {
    await loadDemoIfDue(runtime, log, stop);
    if (!stop.aborted) {
      const demoKey =
        config.demoData === 'auto' || config.demoApiKey !== null
          ? await ensureDemoApiKey(runtime)
          : null;
      // One mirror for the routes and the crawler, so both spend one upstream budget.
      const mirror = createMirror(runtime, (message) => log.warn(message));
      const jobProgress = config.jobs === 'on' ? createJobProgress() : undefined;
      // Owned here rather than by the app, so the job runner below can poll it too.
      changes = createChangeFeed(runtime.store, { clock: runtime.clock, log });
      const app = await buildApp({
        ...runtime,
        logger: log,
        mirror,
        changes,
        ingestPool,
        ...(jobProgress ? { jobProgress } : {}),
      });
      drain = drainableServer(app);
      if (jobProgress) {
        // Job runs, and the blob failures of retention, are counted by the app's metrics.
        const { metrics } = app;
        const blobs = metrics
          ? observedBlobStore(runtime.blobs, metrics.blobFailed)
          : runtime.blobs;
        const deps: JobDeps = { ...runtime, blobs };
        await expectMissingOutput(deps, jobProgress);
        // Jobs run in a thread of their own, so a long one never holds up a request.
        // A job in the thread commits outside this process's writers: reading the change feed
        // as its run ends shows what it changed here at once, not at the next poll.
        runner = canRunInThread(config)
          ? pollingAfterRuns(threadRunner(config), changes)
          : inProcessRunner;
        // Not awaited: missing leaderboards and samples answer 503 until their first build.
        scheduler = startScheduler(deps, JOBS, {
          owner: `${os.hostname()}:${process.pid}`,
          tickMs: JOB_TICK_MS,
          log: { info: (message) => log.info(message), error: (message) => log.error(message) },
          runner,
          progress: jobProgress,
          ...(metrics ? { observer: metrics.jobObserver } : {}),
        });
      }
      if (!stop.aborted) {
        await app.listen({ port: config.port, host: config.host });
        printBanner(config, demoKey);
        if (mirror !== null && config.jobs === 'on') {
          crawler = startScheduler(runtime, [mirrorCrawlJob(mirror)], {
            owner: `${os.hostname()}:${process.pid}`,
            tickMs: JOB_TICK_MS,
            log: { info: (message) => log.info(message), error: (message) => log.error(message) },
          });
        }
      }
    }

    await stopped(stop);
    const graceSeconds = config.shutdownGraceMs / 1000;
    log.info({ signal: stop.reason, graceSeconds }, 'stopping: finishing requests and jobs');
    const started = Date.now();
    const [http, jobs] = await Promise.all([
      drain?.close(config.shutdownGraceMs),
      scheduler?.stop(config.shutdownGraceMs),
      crawler?.stop(0),
    ]);
    log.info(
      {
        ms: Date.now() - started,
        connectionsCut: http?.destroyed ?? 0,
        jobInterrupted: jobs?.abandoned ?? null,
      },
      'stopped',
    );
  } finally {
    // A job cut off at the deadline may still hold a connection: closing pools is bounded too.
    await Promise.race([
      Promise.all([
        (async () => {
          await changes?.stop();
          await runtime.close();
        })(),
        runner.close(),
        ingestPool?.close(),
        stopCheckpoints?.(),
      ]),
      new Promise((resolve) => setTimeout(resolve, CLOSE_POOLS_MS)),
    ]);
  }
  releaseTickShapes();
  await logger.flush();
  process.exit(0);
}

/** Marks the jobs whose output is missing (leaderboards, samples) as awaited by this start. */
async function expectMissingOutput(deps: JobDeps, progress: JobProgress): Promise<void> {
  for (const job of JOBS) {
    if (await job.outputMissing(deps)) progress.expect(job.name);
  }
}

/** The human part of a start: where to send requests and, with demo data, the key to use. */
function printBanner(config: Readonly<Config>, demoKey: string | null): void {
  const lines = [`gamedata-api is serving ${config.publicBaseUrl}`];
  if (demoKey !== null) {
    lines.push(`Demo API key: ${demoKey}`);
    lines.push(
      `Try: curl -H "Authorization: Bearer ${demoKey}" "${config.publicBaseUrl}/shards/pc-b/seasons"`,
    );
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}
