/**
 * `gamedata keys create|list|revoke`: API keys, stored hashed and shown once.
 */
import { Option, type Command } from 'commander';
import { positiveInteger, withRuntime, type CliIo } from './cli-io.ts';
import {
  API_KEY_SCOPES,
  createApiKey,
  listApiKeys,
  revokeApiKey,
  type ApiKeyScope,
} from '../store/api-keys.ts';

/** Adds `gamedata keys` to the program. */
export function registerKeysCommands(program: Command, io: CliIo): void {
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
}
