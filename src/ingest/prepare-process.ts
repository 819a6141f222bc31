/**
 * An ingest worker in a process of its own (prepare-child.ts), for `serve`: lowered whole, so
 * that V8 compiling and collecting for it — which a worker thread leaves to helper threads it
 * shares with the serving thread, at the serving priority — takes only what serving leaves. A
 * profile of a server on one core while matches were posted to it showed those helpers taking
 * 0.52 s of 4.5 s at the serving priority, four fifths of it compiling the worker's code.
 *
 * Tasks and outcomes cross a socket as frames (frames.ts), the posted bytes as they are; the
 * process opens a store of its own, as a worker thread does.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { readFrames, writeFrame } from './frames.ts';
import type { PrepareOutcome, PrepareTask } from './prepare-match.ts';
import type { AttachTask, WorkerSetup } from './prepare-tasks.ts';

/** A running worker process. */
export interface PrepareProcess {
  /** Sends a task; its outcome comes to `onOutcome` under `id`. */
  send(id: number, task: PrepareTask | AttachTask): void;
  /** Ends the process (at once if it does not end within `graceMs` of being asked). */
  stop(graceMs?: number): Promise<void>;
}

/** What an outcome frame's header holds; `source`: its one buffer is the outcome's source. */
interface OutcomeHeader {
  id: number;
  outcome: PrepareOutcome;
  source: boolean;
}

/**
 * Node's flags for the worker: this process's (tsx's loader under tsx, say), but those that
 * would clash with it — an inspector's port — or that only a test runner's process takes.
 */
function workerExecArgv(): string[] {
  return process.execArgv.filter((flag) => !/^--(inspect|debug|test)/.test(flag));
}

/**
 * Starts a worker process set up with `setup`, at niceness `setup.nice`. `onExit` is called once,
 * when it ends for any reason — asked to or not — or could not be started.
 */
export function startPrepareProcess(
  setup: WorkerSetup,
  onOutcome: (id: number, outcome: PrepareOutcome) => void,
  onExit: (error: Error) => void,
): PrepareProcess {
  const extension = path.extname(fileURLToPath(import.meta.url));
  const entry = fileURLToPath(new URL(`./prepare-child${extension}`, import.meta.url));
  // V8's own young generation (16 MB a semi-space): at 4 MB, the worker held 15–25 MB less
  // resident but cost 7 ms more CPU a match, its helper threads scavenging what the parse of a
  // match keeps alive until it is stored (2026-12-02, 20 matches posted after 20, in turns).
  const child = spawn(process.execPath, [...workerExecArgv(), entry, String(setup.nice)], {
    stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
  });
  const channel = child.stdio[3] as Socket;
  let exited = false;
  const ended = new Promise<void>((resolve) => {
    const end = (error: Error): void => {
      if (!exited) onExit(error);
      exited = true;
      resolve();
    };
    child.once('error', (error) =>
      end(new Error(`an ingest worker process failed: ${error.message}`)),
    );
    child.once('exit', (code, signal) =>
      end(new Error(`an ingest worker process stopped (${signal ?? `exit code ${code}`})`)),
    );
  });
  // A process that ended has closed its end; what is still queued to it is lost with it.
  channel.on('error', () => channel.destroy());
  readFrames<OutcomeHeader>(channel, ({ header, buffers }) => {
    const { id, outcome, source } = header;
    onOutcome(
      id,
      source && outcome.kind === 'other' ? { ...outcome, source: buffers[0]! } : outcome,
    );
  });
  writeFrame(channel, setup);

  return {
    send(id, task) {
      if ('attachTo' in task) {
        const { attachTo, now, telemetry } = task;
        writeFrame(channel, { id, now, telemetry: true, attachTo }, [telemetry]);
        return;
      }
      const buffers = task.telemetry ? [task.source, task.telemetry] : [task.source];
      writeFrame(channel, { id, now: task.now, telemetry: task.telemetry !== undefined }, buffers);
    },
    async stop(graceMs = 5_000) {
      channel.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await ended;
      clearTimeout(timer);
    },
  };
}
