#!/usr/bin/env node
/**
 * The process entry point and the only module that reads the environment and handles signals.
 * `gamedata <command>` and `npm start` (= `gamedata serve`) both land here. It loads only the
 * command line itself: each command loads what it needs when it runs (`serve` loads
 * src/serve.ts, the HTTP app and the jobs), so `--help`, `keys list` or `jobs run` start
 * without the serving stack.
 */
import os from 'node:os';
import type { Config } from './config.ts';
import { jobNiceOf, lowerProcessPriority } from './jobs/job-priority.ts';

// `gamedata jobs run` exists for its job: it lowers itself to JOB_NICE before it loads even the
// command line, so nearly all of its start takes only the CPU serving leaves idle (the command
// lowers it again once the config is read and checked, which then changes nothing). No option
// can come before a command but --version, so argv[2..3] is the only place `jobs run` can be
// (test/cli/program.test.ts holds the program to that).
if (process.argv[2] === 'jobs' && process.argv[3] === 'run') {
  const nice = jobNiceOf(process.env.JOB_NICE);
  if (nice !== null) lowerProcessPriority(nice);
}
const { buildProgram } = await import('./cli/program.ts');

let stopController: AbortController | null = null;

/**
 * SIGTERM and SIGINT as an AbortSignal, listened to from the first call on (commands that never
 * call it keep Node's default: the signal ends them at once, rolling back an open transaction).
 * The first signal asks for an orderly stop; a second one exits at once (128 + its number).
 */
function stopSignal(): AbortSignal {
  if (stopController) return stopController.signal;
  const controller = new AbortController();
  stopController = controller;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) {
      process.stderr.write(`${signal} again: exiting at once\n`);
      process.exit(128 + (os.constants.signals[signal] ?? 0));
    }
    controller.abort(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return controller.signal;
}

/** `gamedata serve`, loaded when it runs. */
async function serve(config: Readonly<Config>): Promise<void> {
  const { serve: serveUntilStopped } = await import('./serve.ts');
  await serveUntilStopped(config, stopSignal);
}

const program = buildProgram(
  {
    env: process.env,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    interactive: process.stderr.isTTY === true,
    stopSignal,
    lowerPriority: (nice) => void lowerProcessPriority(nice),
  },
  serve,
);

try {
  // `gamedata` alone serves; any other word must name a command (so typos get suggestions).
  await program.parseAsync(process.argv.length > 2 ? process.argv : [...process.argv, 'serve']);
} catch (error) {
  const [{ ConfigError }, { BlobStoreUnavailableError }, { StoreUnavailableError }] =
    await Promise.all([
      import('./config.ts'),
      import('./blobs/blob-store.ts'),
      import('./store/store-errors.ts'),
    ]);
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
