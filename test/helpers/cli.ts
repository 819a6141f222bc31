/**
 * Runs one `gamedata …` command in-process, as `src/main.ts` would, with its output captured:
 * the CLI tests assert on what a command prints and on its exit code, without a child process.
 */
import { buildProgram } from '../../src/cli/program.ts';

export interface CliRun {
  out: string[];
  err: string[];
  exitCode: number;
}

/** `env` is the whole environment the command sees (e.g. `DATA_DIR`, `LOG_LEVEL`). */
export async function runCli(env: Record<string, string>, ...args: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const program = buildProgram(
    { env, out: (line) => out.push(line), err: (line) => err.push(line), interactive: false },
    async () => {
      throw new Error('serve is not under test here');
    },
  );
  program.exitOverride();
  process.exitCode = 0;
  await program.parseAsync(['node', 'gamedata', ...args]);
  const exitCode = process.exitCode ?? 0;
  process.exitCode = 0;
  return { out, err, exitCode };
}

/** `runCli` against a data directory, with logs silenced. */
export const runCliIn = (dataDir: string, ...args: string[]): Promise<CliRun> =>
  runCli({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, ...args);
