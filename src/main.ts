#!/usr/bin/env node
/**
 * The process entry point and the only module that reads the environment, listens on a port and
 * handles signals. `gamedata <command>` and `npm start` (= `gamedata serve`) both land here.
 */
import os from 'node:os';
import { buildApp } from './app.ts';
import { ConfigError, type Config } from './config.ts';
import { BlobStoreUnavailableError } from './blobs/blob-store.ts';
import { buildProgram } from './cli/program.ts';
import { ensureDemoApiKey, isStoreEmpty } from './cli/demo-key.ts';
import { openRuntime } from './runtime.ts';
import { StoreUnavailableError } from './store/store-errors.ts';
import { populateDemo } from './demo/populate-demo.ts';
import { JOBS } from './jobs/index.ts';
import { startScheduler, type Scheduler } from './jobs/scheduler.ts';

/** How often the scheduler looks for due jobs. */
const JOB_TICK_MS = 60_000;

async function serve(config: Readonly<Config>): Promise<void> {
  const runtime = await openRuntime(config);
  if (config.demoData === 'auto' && (await isStoreEmpty(runtime))) {
    process.stderr.write(
      'The store is empty: generating the demo data set (DEMO_DATA=off to skip)…\n',
    );
    const summary = await populateDemo(runtime, {
      seed: config.demoSeed,
      scale: 1,
      now: runtime.clock.now(),
      progress: process.stderr.isTTY === true,
    });
    process.stderr.write(
      `Demo data: ${summary.matches} matches, ${summary.players} players in ${(summary.ms / 1000).toFixed(1)} s\n`,
    );
  }
  const demoKey =
    config.demoData === 'auto' || config.demoApiKey !== null
      ? await ensureDemoApiKey(runtime)
      : null;

  const app = await buildApp({
    ...runtime,
    logger: { level: config.logLevel, redact: ['req.headers.authorization'] },
  });

  let scheduler: Scheduler | null = null;
  if (config.jobs === 'on') {
    scheduler = startScheduler(runtime, JOBS, {
      owner: `${os.hostname()}:${process.pid}`,
      tickMs: JOB_TICK_MS,
      log: { info: (message) => app.log.info(message), error: (message) => app.log.error(message) },
    });
    // Missing leaderboards and samples are built before the first request can ask for them.
    await scheduler.tick();
  }
  await app.listen({ port: config.port, host: config.host });

  const lines = [`gamedata-api is serving ${config.publicBaseUrl}`];
  if (demoKey !== null) {
    lines.push(`Demo API key: ${demoKey}`);
    lines.push(
      `Try: curl -H "Authorization: Bearer ${demoKey}" "${config.publicBaseUrl}/shards/pc-b/seasons"`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  let closing = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await scheduler?.stop();
    await app.close();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

const program = buildProgram(
  {
    env: process.env,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    interactive: process.stderr.isTTY === true,
  },
  serve,
);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else if (error instanceof BlobStoreUnavailableError) {
    // An operator's mistake (a missing bucket, wrong credentials): the line says it all, no stack.
    process.stderr.write(`gamedata: blob store: ${error.message}\n`);
  } else if (error instanceof StoreUnavailableError) {
    // The database stayed unreachable for DATABASE_STARTUP_TIMEOUT_SECONDS: one line, no stack.
    process.stderr.write(`gamedata: ${error.message}\n`);
  } else {
    process.stderr.write(
      `gamedata: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
}
