/**
 * What every `gamedata` subcommand shares: its input and output (so tests run commands without a
 * process of their own), the option parsers commander calls, and a runtime opened for the length
 * of one command.
 */
import { InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.ts';
import { fixedClock, systemClock } from '../clock.ts';
import { openRuntime, type Runtime } from '../runtime.ts';

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

/** Runs `work` with a runtime opened from the environment, closing it afterwards. */
export async function withRuntime<T>(
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
