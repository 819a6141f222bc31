/**
 * `gamedata jobs run <name>`: one scheduled job now, under the same lease `serve` takes, at the
 * niceness `JOB_NICE`, so a job started beside a serving instance (by cron, by hand) takes only
 * the CPU serving leaves idle. The process exists for the job: it lowers all of itself before
 * the config, the job, the store and their modules are loaded (src/main.ts does so even before the
 * command line is), and runs the job in that process. Where it shares a process (tests), the job
 * runs in a worker thread that lowers itself, as in `serve`.
 */
import { Option, type Command } from 'commander';
import { commandConfig, instant, withRuntime, type CliIo } from './cli-io.ts';
import { JOB_NAMES, isJobName } from '../jobs/job-names.ts';
import { jobNiceOf } from '../jobs/job-priority.ts';

/** Adds `gamedata jobs` to the program. */
export function registerJobsCommands(program: Command, io: CliIo): void {
  const jobs = program
    .command('jobs')
    .description('Scheduled jobs (serve runs them on their intervals).');
  jobs
    .command('run')
    .description(`Run one job now: ${JOB_NAMES.join(', ')}.`)
    .argument('<name>')
    .addOption(
      new Option('--now <iso>', 'the time the job runs at (default: now)').argParser(instant),
    )
    .action(async (name: string, options: { now?: number }) => {
      if (!isJobName(name)) {
        io.err(`No job '${name}'; jobs: ${JOB_NAMES.join(', ')}`);
        process.exitCode = 1;
        return;
      }
      // Lowered before the config is even loaded: loading it is most of the start's CPU.
      const asked = jobNiceOf(io.env.JOB_NICE);
      if (asked !== null) io.lowerPriority?.(asked);
      const config = await commandConfig(io);
      if (config.jobNice !== asked) io.lowerPriority?.(config.jobNice);
      const [{ findJob }, { runJobOnce }, runners] = await Promise.all([
        import('../jobs/index.ts'),
        import('../jobs/scheduler.ts'),
        import('../jobs/job-thread-runner.ts'),
      ]);
      const job = findJob(name)!;
      const inThread = io.lowerPriority === undefined && runners.canRunInThread(config);
      await withRuntime(
        io,
        async (runtime) => {
          const runner = inThread ? runners.threadRunner(config) : runners.inProcessRunner;
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
        config,
      );
    });
}
