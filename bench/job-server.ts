/**
 * The service with a remote control for jobs, for `jobs-under-load.ts`: the app (as built in
 * dist/, see built.ts) is built and listens as `gamedata serve` does (from the environment,
 * logging JSON lines to stdout; JOBS=off, so no timer runs a job by itself), and a line
 * `run <job> <now ms>` on standard input runs that job in this very process — through
 * `runJobOnce` and the job thread, as the scheduler of `serve` does — at the given instant. When
 * it ends, the server prints `JOB {"name","ms","outcome"}`. A line `clock <ms>` sets the
 * server's own clock that many ms ahead of the system's (answered `JOB {"name":"clock",…}`): a
 * job run at the same instant then finds what the server has already seen expire.
 */
import readline from 'node:readline';
import { pino } from 'pino';
import { builtModule } from './built.ts';
import type * as App from '../src/app.ts';
import type * as Clock from '../src/clock.ts';
import type * as Config from '../src/config.ts';
import type * as Jobs from '../src/jobs/index.ts';
import type * as Scheduler from '../src/jobs/scheduler.ts';
import type * as JobThreads from '../src/jobs/job-thread-runner.ts';
import type * as Runtime from '../src/runtime.ts';

// The service's modules as built (dist/, see built.ts): only this file runs under tsx.
const [
  { buildApp },
  { fixedClock },
  { loadConfig },
  { findJob },
  { runJobOnce },
  threads,
  { openRuntime },
] = await Promise.all([
  builtModule<typeof App>('app.js'),
  builtModule<typeof Clock>('clock.js'),
  builtModule<typeof Config>('config.js'),
  builtModule<typeof Jobs>('jobs/index.js'),
  builtModule<typeof Scheduler>('jobs/scheduler.js'),
  builtModule<typeof JobThreads>('jobs/job-thread-runner.js'),
  builtModule<typeof Runtime>('runtime.js'),
]);
const { canRunInThread, inProcessRunner, threadRunner } = threads;

const config = loadConfig(process.env);
const runtime = await openRuntime(config);
// As `serve` does: SQLite's log is copied into the database by a thread of its own, not by
// whichever commit of this thread (a job's lease, a probe's key use) finds it long.
const stopCheckpoints = runtime.store.checkpointInBackground?.({ nice: config.ingestNice }) ?? null;
const logger = pino({ level: config.logLevel, redact: ['req.headers.authorization'] });
/** How far the server's clock runs ahead of the system's, in ms. */
let clockAhead = 0;
const clock = { now: () => Date.now() + clockAhead };
const app = await buildApp({ ...runtime, clock, logger });
// Where `serve` runs its jobs: a worker thread of this process (in-memory SQLite: this thread).
const runner = canRunInThread(config) ? threadRunner(config) : inProcessRunner;
await app.listen({ port: config.port, host: config.host });

const reply = (message: object): void =>
  void process.stdout.write(`JOB ${JSON.stringify(message)}\n`);

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, name = '', at = ''] = line.trim().split(/\s+/);
  if (command === 'clock' && Number.isFinite(Number(name))) {
    clockAhead = Number(name);
    reply({ name: 'clock', ms: 0, outcome: `${clockAhead} ms ahead` });
    return;
  }
  const job = findJob(name);
  if (command !== 'run' || job === undefined || !Number.isFinite(Number(at))) {
    reply({ name, ms: 0, outcome: `bad command '${line}'` });
    return;
  }
  const started = performance.now();
  const deps = { ...runtime, clock: fixedClock(Number(at)) };
  void runJobOnce(deps, job, `bench-${process.pid}`, runner).then((result) => {
    const outcome = !result.ran
      ? 'locked'
      : 'error' in result
        ? `failed: ${result.error}`
        : result.summary;
    reply({ name, ms: performance.now() - started, outcome });
  });
});

process.on('SIGTERM', () => {
  void app.close().then(async () => {
    await runner.close();
    await stopCheckpoints?.();
    await runtime.close();
    process.exit(0);
  });
});
