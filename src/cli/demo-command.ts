/**
 * `gamedata demo`: generates the demo data set through the ingest pipeline (resumable, idempotent
 * for one seed, scale and `--now`) and registers the demo key. The generator and the ingest
 * pipeline are loaded when the command runs.
 */
import { Option, type Command } from 'commander';
import { instant, positiveInteger, positiveNumber, withRuntime, type CliIo } from './cli-io.ts';
import { TELEMETRY_PROFILES, type TelemetryProfileName } from '../demo/telemetry-profile.ts';

/** Options of `gamedata demo`. */
type DemoCommandOptions = {
  seed?: number;
  scale: number;
  now?: number;
  telemetry: TelemetryProfileName;
  players?: number;
};

/** Adds `gamedata demo` to the program. */
export function registerDemoCommand(program: Command, io: CliIo): void {
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
    .addOption(
      new Option(
        '--players <n>',
        'then grow the store to n players with twins of the demo players (copies of their stats and match lists; for benchmarks)',
      ).argParser(positiveInteger),
    )
    .action(async (options: DemoCommandOptions) => {
      const [{ chooseDemoRun, loadDemo }, { addPlayerTwins }, { ensureDemoApiKey }] =
        await Promise.all([
          import('../demo/load-demo.ts'),
          import('../demo/add-player-twins.ts'),
          import('./demo-key.ts'),
        ]);
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
          if (options.players !== undefined) {
            const twins = await addPlayerTwins(runtime.store, options.players);
            io.out(
              `Players: ${twins.before} → ${twins.after} (twins of ${twins.templates}) in ${(twins.ms / 1000).toFixed(1)} s`,
            );
          }
          io.out(`Demo API key: ${await ensureDemoApiKey(runtime)}`);
        },
        options.now,
      );
    });
}
