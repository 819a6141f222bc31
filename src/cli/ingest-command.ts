/**
 * `gamedata ingest <source>`: matches, clans, player statuses and recorded documents from a
 * file, a directory or standard input, one line per item and a summary. The ingest pipeline is
 * loaded when the command runs.
 */
import { Option, type Command } from 'commander';
import type { IngestSourceResult } from '../ingest/ingest-source.ts';
import { instant, withRuntime, type CliIo } from './cli-io.ts';
import { ingestWorkersOf } from '../config.ts';

interface IngestCommandOptions {
  region?: string;
  telemetry?: string;
  platform?: string;
  recordedAt?: number;
}

/** Adds `gamedata ingest` to the program. */
export function registerIngestCommand(program: Command, io: CliIo): void {
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
      const [
        { ingestPath },
        { openPreparePool },
        { requestDerivedDataRebuild },
        { canRunInThread },
      ] = await Promise.all([
        import('../ingest/ingest-source.ts'),
        import('../ingest/prepare-pool.ts'),
        import('../jobs/index.ts'),
        import('../jobs/job-thread-runner.ts'),
      ]);
      await withRuntime(io, async (runtime) => {
        const ingestWorkers = ingestWorkersOf(runtime.config, 'ingest');
        // Its worker threads look each match up in a store of their own, so that a directory
        // ingested again costs their parse and checks, not gzip and rendering; the main thread
        // stores. A database in memory, which only this connection sees, they cannot.
        const { config } = runtime;
        const lookup = canRunInThread(config) ? { config, lookupOnly: true } : null;
        const pool = ingestWorkers > 0 ? openPreparePool(ingestWorkers, config, 0, lookup) : null;
        const counts = { ingested: 0, attached: 0, unchanged: 0, error: 0 };
        // Each line as its match is stored, so a long directory shows its progress.
        const onResult = (result: IngestSourceResult): void => {
          // Clans, statuses and recorded ranked/clan documents say 'duplicate' for unchanged.
          counts[result.status === 'duplicate' ? 'unchanged' : result.status]++;
          if (result.status === 'error') {
            io.err(`error     ${result.source}: ${result.message}`);
          } else {
            const what = 'matchId' in result ? result.matchId : `${result.kind} ${result.id}`;
            io.out(`${result.status.padEnd(9)} ${what} (${result.source})`);
          }
        };
        await ingestPath(runtime, source, {
          ...options,
          ...(pool ? { pool } : {}),
          onResult,
        }).finally(() => pool?.close());
        io.out(
          `${counts.ingested} ingested, ${counts.attached} given their telemetry, ` +
            `${counts.unchanged} unchanged, ${counts.error} refused`,
        );
        // A completed load: what jobs derived while it ran is rebuilt at their next tick.
        if (counts.ingested > 0) await requestDerivedDataRebuild(runtime.store.db);
        if (counts.error > 0) process.exitCode = 1;
      });
    });
}
