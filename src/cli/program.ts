/**
 * The `gamedata` command line: every subcommand but `serve`'s listening loop (which lives in
 * `src/main.ts`), each in a file of its own. Building the program loads only commander and the
 * commands' descriptions: each command loads the config and the modules it runs when it runs, so
 * `--help` works whatever the environment and no command waits for another's modules.
 */
import { Command } from 'commander';
import type { Config } from '../config.ts';
import { SERVICE_VERSION } from '../version.ts';
import { commandConfig, withRuntime, type CliIo } from './cli-io.ts';
import { registerDemoCommand } from './demo-command.ts';
import { registerIngestCommand } from './ingest-command.ts';
import { registerKeysCommands } from './keys-command.ts';
import { registerJobsCommands } from './jobs-command.ts';
import { registerMirrorCommand } from './mirror-command.ts';

export type { CliIo } from './cli-io.ts';

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
    .action(async () => serve(await commandConfig(io)));

  registerDemoCommand(program, io);
  registerIngestCommand(program, io);
  registerKeysCommands(program, io);
  registerJobsCommands(program, io);
  registerMirrorCommand(program, io);

  program
    .command('migrate')
    .description('Apply pending database migrations and exit.')
    .action(async () => {
      await withRuntime(io, async () => io.out('The store is migrated to the latest schema.'));
    });

  return program;
}
