/**
 * `gamedata jobs run <name>`: one scheduled job now, under the same lease `serve` takes, and
 * where `serve` runs it: in a worker thread at the niceness `JOB_NICE`, so a job started beside
 * a serving instance (by cron, by hand) takes only the CPU serving leaves idle.
 */
import { Option, type Command } from 'commander';
import { instant, withRuntime, type CliIo } from './cli-io.ts';
import { JOBS, findJob } from '../jobs/index.ts';
import { runJobOnce } from '../jobs/scheduler.ts';
import { canRunInThread, inProcessRunner, threadRunner } from '../jobs/job-thread-runner.ts';

/** Adds `gamedata jobs` to the program. */
export function registerJobsCommands(program: Command, io: CliIo): void {
  const jobs = program
    .command('jobs')
    .description('Scheduled jobs (serve runs them on their intervals).');
  jobs
    .command('run')
    .description(`Run one job now: ${JOBS.map((job) => job.name).join(', ')}.`)
    .argument('<name>')
    .addOption(
      new Option('--now <iso>', 'the time the job runs at (default: now)').argParser(instant),
    )
    .action(async (name: string, options: { now?: number }) => {
      const job = findJob(name);
      if (!job) {
        io.err(`No job '${name}'; jobs: ${JOBS.map((j) => j.name).join(', ')}`);
        process.exitCode = 1;
        return;
      }
      await withRuntime(
        io,
        async (runtime) => {
          const { config } = runtime;
          const runner = canRunInThread(config) ? threadRunner(config) : inProcessRunner;
          const result = await runJobOnce(runtime, job, `cli-${process.pid}`, runner).finally(() =>
            runner.close(),
          );
          if (!result.ran) {
            io.err(`${name}: another instance is running it; try again later`);
            process.exitCode = 1;
          } else if ('error' in result) {
            io.err(`${name} failed: ${result.error}`);
            process.exitCode = 1;
          } else {
            io.out(`${name}: ${result.summary}`);
          }
        },
        options.now,
      );
    });
}
