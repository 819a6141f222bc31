/**
 * The two ways the jobs-under-load bench starts a job: inside the server process (the job
 * server of job-server.ts, told on its standard input — where `serve`'s scheduler runs jobs),
 * or as `gamedata jobs run` in a process of its own (as a second instance or cron would).
 */
import readline from 'node:readline';
import { dataDirEnv } from './bench-data.ts';
import { exitOf, type ChildRegistry } from './children.ts';
import { BUILT_MAIN } from './built.ts';
import { ROOT } from './project-root.ts';
import { type RunningServer } from './servers.ts';

/** Runs `job` as if the time were `now` (epoch ms); resolves when it has ended. */
export type JobTrigger = (
  job: string,
  now: number,
) => Promise<{ seconds: number; outcome: string }>;

/** The job server's remote control (bench/job-server.ts). */
export interface InServerControl {
  /** Runs a job in the job server's own process; its `JOB {…}` line tells the end. */
  trigger: JobTrigger;
  /** Sets the server's clock `ms` ahead of the system's. */
  setClockAhead(ms: number): Promise<void>;
}

export function inServerControl(jobServer: RunningServer): InServerControl {
  const replies = readline.createInterface({ input: jobServer.child.stdout! });
  const ask = (name: string, command: string) =>
    new Promise<{ seconds: number; outcome: string }>((resolve) => {
      const onLine = (line: string): void => {
        if (!line.startsWith('JOB ')) return;
        const reply = JSON.parse(line.slice(4)) as { name: string; ms: number; outcome: string };
        if (reply.name !== name) return;
        replies.off('line', onLine);
        resolve({ seconds: reply.ms / 1000, outcome: reply.outcome });
      };
      replies.on('line', onLine);
      jobServer.child.stdin!.write(`${command}\n`);
    });
  return {
    trigger: (job, now) => ask(job, `run ${job} ${now}`),
    setClockAhead: async (ms) => void (await ask('clock', `clock ${ms}`)),
  };
}

/**
 * `gamedata jobs run <job> --now <iso>` on the same data, pinned with the servers (a job on the
 * server's machine competes for its cores); timed from spawn to exit, start included.
 */
export function cliTrigger(
  children: ChildRegistry,
  dataDir: string,
  cpus: string | null,
): JobTrigger {
  return async (job, now) => {
    const started = performance.now();
    const child = children.spawn(
      process.execPath,
      [BUILT_MAIN, 'jobs', 'run', job, '--now', new Date(now).toISOString()],
      {
        cwd: ROOT,
        cpus,
        env: { ...process.env, ...dataDirEnv(dataDir) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await exitOf(child);
    const outcome = output.trim().split('\n').pop() ?? '';
    return {
      seconds: (performance.now() - started) / 1000,
      outcome: code === 0 ? outcome : `exit ${code}: ${outcome}`,
    };
  };
}
