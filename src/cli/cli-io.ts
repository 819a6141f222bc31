/**
 * What every `gamedata` subcommand shares: its input and output (so tests run commands without a
 * process of their own), the option parsers commander calls, and a runtime opened for the length
 * of one command. The config and the runtime are loaded when a command runs, not when the program
 * is built: `--help` reads neither.
 */
import { InvalidArgumentError } from 'commander';
import type { Config } from '../config.ts';
import { fixedClock, systemClock } from '../clock.ts';
import type { Runtime } from '../runtime.ts';

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
  /**
   * Lowers the whole process to a niceness (0–19), for a command that exists to run a job; given
   * by src/main.ts. Absent when the command shares its process (tests): the job then runs in a
   * thread that lowers itself alone.
   */
  lowerPriority?(nice: number): void;
}

export const positiveInteger = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
};
export const positiveNumber = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
};
export const instant = (value: string): number => {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new InvalidArgumentError('expected an ISO 8601 date-time');
  return ms;
};

/** The config from the command's environment (a ConfigError says what is wrong in it). */
export async function commandConfig(io: CliIo): Promise<Readonly<Config>> {
  const { loadConfig } = await import('../config.ts');
  return loadConfig(io.env);
}

/**
 * Runs `work` with a runtime opened from `config` (default: the environment), closing it
 * afterwards.
 */
export async function withRuntime<T>(
  io: CliIo,
  work: (runtime: Runtime) => Promise<T>,
  now?: number,
  config?: Readonly<Config>,
): Promise<T> {
  const { openRuntime } = await import('../runtime.ts');
  const runtime = await openRuntime(
    config ?? (await commandConfig(io)),
    now === undefined ? systemClock : fixedClock(now),
  );
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}
