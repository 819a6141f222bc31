/**
 * `gamedata mirror`: crawls UPSTREAM_URL into the store — samples per shard, their matches and
 * telemetry, and the watch list (`mirror watch|unwatch|list`). `--once` does one pass and exits
 * (cron, tests); without it a pass runs every MIRROR_INTERVAL_MINUTES until a stop signal. The
 * upstream client and the crawler are loaded when a crawl runs.
 */
import type { Command } from 'commander';
import type { Runtime } from '../runtime.ts';
import { listWatchedPlayers, unwatchPlayers, watchPlayers } from '../store/mirror-state.ts';
import { withRuntime as withCommandRuntime, type CliIo } from './cli-io.ts';

/** Adds `mirror` and its subcommands to the program. */
export function registerMirrorCommand(program: Command, io: CliIo): void {
  const withRuntime = <T>(work: (runtime: Runtime) => Promise<T>): Promise<T> =>
    withCommandRuntime(io, work);
  const mirror = program
    .command('mirror')
    .description(
      'Crawl UPSTREAM_URL into the store: samples per shard, their matches and telemetry, and the watch list.',
    )
    .option('--once', 'one pass, then exit')
    .option('--shard <shard...>', 'shards whose samples are walked (default: MIRROR_SHARDS)')
    .action(async (options: { once?: boolean; shard?: string[] }) => {
      const [{ createMirror }, { describeCrawl }, { crawlPass }] = await Promise.all([
        import('../upstream/mirror.ts'),
        import('../upstream/mirror-crawl.ts'),
        import('./crawl-pass.ts'),
      ]);
      await withRuntime(async (runtime) => {
        const upstream = createMirror(runtime);
        if (upstream === null) {
          io.err('UPSTREAM_URL is not set: nothing to mirror');
          process.exitCode = 1;
          return;
        }
        const signal = io.stopSignal?.();
        do {
          const summary = await crawlPass(
            runtime,
            upstream,
            options.shard ?? runtime.config.mirrorShards,
            signal,
            io.interactive,
          );
          if (summary === null) return;
          io.out(`mirror: ${describeCrawl(summary, upstream)}`);
          if (options.once) return;
          await pause(runtime.config.mirrorIntervalMinutes * 60_000, signal);
        } while (!signal?.aborted);
      });
    });

  mirror
    .command('watch')
    .description('Add players to the watch list: their matches are archived at each pass.')
    .argument('<shard>', 'shard as spelled to the upstream')
    .argument('<name...>', 'player names (case-sensitive)')
    .action(async (shard: string, names: string[]) => {
      await withRuntime(async (runtime) => {
        const added = await watchPlayers(runtime.store.db, shard, names, runtime.clock.now());
        io.out(`${added} added to the watch list (${names.length - added} were on it)`);
      });
    });
  mirror
    .command('unwatch')
    .description('Remove players from the watch list.')
    .argument('<shard>')
    .argument('<name...>')
    .action(async (shard: string, names: string[]) => {
      await withRuntime(async (runtime) => {
        const removed = await unwatchPlayers(runtime.store.db, shard, names);
        io.out(`${removed} removed from the watch list`);
      });
    });
  mirror
    .command('list')
    .description('Show the watch list.')
    .action(async () => {
      await withRuntime(async (runtime) => {
        for (const player of await listWatchedPlayers(runtime.store.db)) {
          const refreshed =
            player.refreshedAt === null ? 'never' : new Date(player.refreshedAt).toISOString();
          io.out(
            `${player.shard}\t${player.name}\t${player.accountId ?? '-'}\trefreshed ${refreshed}`,
          );
        }
      });
    });
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
