/**
 * The `gamedata` command line: every subcommand but `serve`'s listening loop (which lives in
 * `src/main.ts`). Commands load the config lazily, so `--help` works whatever the environment.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { loadConfig, type Config } from '../config.ts';
import { fixedClock, systemClock } from '../clock.ts';
import { openRuntime, type Runtime } from '../runtime.ts';
import {
  API_KEY_SCOPES,
  createApiKey,
  listApiKeys,
  revokeApiKey,
  type ApiKeyScope,
} from '../store/api-keys.ts';
import { ensureDemoApiKey } from './demo-key.ts';
import { chooseDemoRun, loadDemo } from '../demo/load-demo.ts';
import { TELEMETRY_PROFILES, type TelemetryProfileName } from '../demo/telemetry-profile.ts';
import { SERVICE_VERSION } from '../version.ts';
import { ingestPath } from '../ingest/ingest-source.ts';
import { JOBS, findJob, requestDerivedDataRebuild } from '../jobs/index.ts';
import { runJobOnce } from '../jobs/scheduler.ts';

export interface CliIo {
  env: Record<string, string | undefined>;
  out(line: string): void;
  err(line: string): void;
  /** Whether stderr is a terminal (progress bars only then). */
  interactive: boolean;
  /**
   * Aborted by the first stop signal (SIGTERM, SIGINT) once called: commands that can stop
   * cleanly part-way call it; the others end at once on a signal, as Node does by default.
   */
  stopSignal?(): AbortSignal;
}

const positiveInteger = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
};
const positiveNumber = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
};
const instant = (value: string): number => {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new InvalidArgumentError('expected an ISO 8601 date-time');
  return ms;
};

interface IngestCommandOptions {
  region?: string;
  telemetry?: string;
  platform?: string;
  recordedAt?: number;
}

/** Options of `gamedata demo`. */
type DemoCommandOptions = {
  seed?: number;
  scale: number;
  now?: number;
  telemetry: TelemetryProfileName;
};

/** Runs `work` with a runtime opened from the environment, closing it afterwards. */
async function withRuntime<T>(
  io: CliIo,
  work: (runtime: Runtime) => Promise<T>,
  now?: number,
): Promise<T> {
  const runtime = await openRuntime(
    loadConfig(io.env),
    now === undefined ? systemClock : fixedClock(now),
  );
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}

export function buildProgram(
  io: CliIo,
  serve: (config: Readonly<Config>) => Promise<void>,
): Command {
  const program = new Command('gamedata')
    .description(
      'Self-hostable game data API: serve it, fill it, manage its keys (no command: serve).',
    )
    .version(SERVICE_VERSION)
    .configureOutput({
      writeOut: (text) => io.out(text.replace(/\n$/, '')),
      writeErr: (text) => io.err(text.replace(/\n$/, '')),
    })
    .showHelpAfterError()
    .showSuggestionAfterError();

  program
    .command('serve')
    .description(
      'Start the API (loading the demo data first when the store is empty, or completing an interrupted demo load, with DEMO_DATA=auto).',
    )
    .action(() => serve(loadConfig(io.env)));

  program
    .command('demo')
    .description(
      'Generate the demo data set through the ingest pipeline and register the demo API key.',
    )
    .addOption(new Option('--seed <n>', 'generator seed (default: DEMO_SEED)').argParser(Number))
    .addOption(
      new Option('--scale <x>', 'multiplies the number of matches')
        .argParser(positiveNumber)
        .default(1),
    )
    .addOption(
      new Option(
        '--now <iso>',
        'end of the generated 14 days (default: that of the last load of this seed and scale, else now)',
      ).argParser(instant),
    )
    .addOption(
      new Option('--telemetry <profile>', 'telemetry detail: default (quick to load) or full')
        .choices(TELEMETRY_PROFILES)
        .default('default'),
    )
    .action(async (options: DemoCommandOptions) => {
      await withRuntime(
        io,
        async (runtime) => {
          const run = await chooseDemoRun(runtime, {
            seed: options.seed ?? runtime.config.demoSeed,
            scale: options.scale,
            now: options.now ?? null,
          });
          io.out(
            `Demo run: seed ${run.seed}, scale ${run.scale}, --now ${new Date(run.now).toISOString()}` +
              (run.recorded ? ' (recorded before: the same matches)' : ''),
          );
          const signal = io.stopSignal?.();
          const summary = await loadDemo(runtime, run, {
            progress: io.interactive,
            telemetry: options.telemetry,
            ...(signal ? { signal } : {}),
          });
          io.out(
            `Demo data: ${summary.matches} matches (${summary.ingested} new, ${summary.duplicates} already stored` +
              `${summary.expired > 0 ? `, ${summary.expired} past retention` : ''}), ` +
              `${summary.players} players in ${(summary.ms / 1000).toFixed(1)} s`,
          );
          if (summary.interrupted) {
            io.err('Interrupted: run the same command again to complete the load.');
            process.exitCode = 1;
            return;
          }
          io.out(`Demo API key: ${await ensureDemoApiKey(runtime)}`);
        },
        options.now,
      );
    });

  program
    .command('ingest')
    .description(
      'Ingest finished matches, clans, player statuses and recorded documents: a JSON file, a directory of them, or - for standard input.',
    )
    .argument('<source>', 'file, directory or -')
    .option('--region <shard>', 'platform-region shard for recorded documents that do not name one')
    .option(
      '--telemetry <file>',
      'telemetry file (JSON or gzip) of a single match; attached when the match is stored without one',
    )
    .option(
      '--platform <shard>',
      'platform shard of recorded ranked, clan and mastery documents whose links.self names none',
    )
    .addOption(
      new Option(
        '--recorded-at <iso>',
        'when recorded ranked, clan and mastery documents were recorded (default: now)',
      ).argParser(instant),
    )
    .action(async (source: string, options: IngestCommandOptions) => {
      await withRuntime(io, async (runtime) => {
        const results = await ingestPath(runtime, source, options);
        const counts = { ingested: 0, attached: 0, unchanged: 0, error: 0 };
        for (const result of results) {
          // Clans, statuses and recorded ranked/clan documents say 'duplicate' for unchanged.
          counts[result.status === 'duplicate' ? 'unchanged' : result.status]++;
          if (result.status === 'error') {
            io.err(`error     ${result.source}: ${result.message}`);
          } else {
            const what = 'matchId' in result ? result.matchId : `${result.kind} ${result.id}`;
            io.out(`${result.status.padEnd(9)} ${what} (${result.source})`);
          }
        }
        io.out(
          `${counts.ingested} ingested, ${counts.attached} given their telemetry, ` +
            `${counts.unchanged} unchanged, ${counts.error} refused`,
        );
        // A completed load: what jobs derived while it ran is rebuilt at their next tick.
        if (counts.ingested > 0) await requestDerivedDataRebuild(runtime.store.db);
        if (counts.error > 0) process.exitCode = 1;
      });
    });

  const keys = program.command('keys').description('Manage API keys (stored hashed; shown once).');
  keys
    .command('create')
    .description('Create a key; the key alone is printed on the last line.')
    .requiredOption('--name <name>', 'who or what the key is for')
    .addOption(
      new Option('--scope <scope>', 'read: the read API; ingest: only POST/PUT /ingest/…')
        .choices(API_KEY_SCOPES)
        .default('read'),
    )
    .addOption(
      new Option(
        '--rpm <n>',
        'requests per minute (default: RATE_LIMIT_PER_MINUTE, INGEST_RATE_LIMIT_PER_MINUTE for ingest keys)',
      ).argParser(positiveInteger),
    )
    .action(async (options: { name: string; scope: ApiKeyScope; rpm?: number }) => {
      await withRuntime(io, async (runtime) => {
        const { config } = runtime;
        const { key, record } = await createApiKey(runtime.store.db, {
          name: options.name,
          scope: options.scope,
          ratePerMinute:
            options.rpm ??
            (options.scope === 'ingest' ? config.ingestRatePerMinute : config.defaultRatePerMinute),
          now: runtime.clock.now(),
        });
        io.out(
          `Created ${record.scope} key ${record.id} "${record.name}" (${record.ratePerMinute} requests/minute). The key:`,
        );
        io.out(key);
      });
    });
  keys
    .command('list')
    .description('List keys (never the keys themselves).')
    .action(async () => {
      await withRuntime(io, async (runtime) => {
        for (const key of await listApiKeys(runtime.store.db)) {
          const state =
            key.revokedAt === null ? 'active' : `revoked ${new Date(key.revokedAt).toISOString()}`;
          io.out(
            `${key.id}\t${key.name}\t${key.scope}\t${key.ratePerMinute}/min\tcreated ${new Date(key.createdAt).toISOString()}\t${state}`,
          );
        }
      });
    });
  keys
    .command('revoke')
    .description('Revoke a key by its id (key_…).')
    .argument('<id>')
    .action(async (id: string) => {
      await withRuntime(io, async (runtime) => {
        if (await revokeApiKey(runtime.store.db, id, runtime.clock.now())) {
          io.out(`Revoked ${id}`);
        } else {
          io.err(`No key ${id}`);
          process.exitCode = 1;
        }
      });
    });

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
          const result = await runJobOnce(runtime, job, `cli-${process.pid}`);
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

  program
    .command('migrate')
    .description('Apply pending database migrations and exit.')
    .action(async () => {
      await withRuntime(io, async () => io.out('The store is migrated to the latest schema.'));
    });

  return program;
}
