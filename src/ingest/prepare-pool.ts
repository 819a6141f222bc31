/**
 * Workers that prepare matches (parse, validate, gzip telemetry, render, tally mastery) while
 * the main thread writes: with several matches to ingest, the next ones are prepared on the
 * other cores as the current one commits — SQLite has one writer. Each task goes to the least
 * busy worker. `serve`'s pool stores the matches as well, from its workers' own store
 * connections, so that the serving thread only receives the bytes and answers; its workers are
 * processes of their own (prepare-process.ts), `gamedata ingest`'s are threads.
 */
import type { Worker } from 'node:worker_threads';
import type { Config } from '../config.ts';
import { LOWER_TO_WORKER_DATA_NICE, startModuleWorker } from '../module-worker.ts';
import { matchInputCheckCode } from './match-input-check.ts';
import {
  bufferOf,
  ownedArrayBuffers,
  type PrepareConfig,
  type PrepareOutcome,
  type PrepareTask,
} from './prepare-match.ts';
import { startPrepareProcess } from './prepare-process.ts';
import type { AttachTask, FileTask, WorkerSetup } from './prepare-tasks.ts';

/**
 * Where a pool's workers store what they prepare: the store and blob store `config` names
 * (`schema`: a PostgreSQL schema other than the search path's, for tests).
 */
export interface StoreTarget {
  config: Config;
  schema?: string;
  /**
   * The workers only look each valid match up there, to settle one stored already before it is
   * gzipped and rendered (a directory ingested again); the caller stores the others.
   */
  lookupOnly?: boolean;
}

/** A pool of prepare workers; `close` ends them (tasks still pending then are rejected). */
export interface PreparePool {
  readonly size: number;
  /**
   * Whether a task's bytes are copied to the worker (a process pool): they are the caller's
   * again once its outcome is in, whichever it is.
   */
  readonly copies: boolean;
  /**
   * Prepares a match in a worker. `handOver`: the caller is done with the task's bytes, which a
   * thread pool then moves to the worker instead of copying them, leaving the caller's Buffers
   * empty. A process pool's are copied by the kernel either way, once it takes them from the
   * socket's queue: until the outcome, they must not change.
   */
  prepare(task: PrepareTask, handOver?: boolean): Promise<PrepareOutcome>;
  /**
   * Prepares the match in the file `file` (with its sibling telemetry file), validated against
   * `now`: a thread reads it itself, into a buffer kept for its next file. A file that cannot
   * be read, or holds no match in the ingest format, is `other`, with no bytes: the caller
   * reads it again to ingest it as it would without a pool. Threads only: a process pool
   * (`serve`'s, sent the bodies it receives) refuses.
   */
  prepareFile(file: string, now: number): Promise<PrepareOutcome>;
  /** Whether the workers store what they prepare (a target, not only for lookups). */
  readonly stores: boolean;
  /**
   * Attaches a telemetry file (gzip or JSON bytes) to the stored match `matchId` in a worker
   * that stores (`stores`): `stored` with attachTelemetry's result, or its error. The bytes
   * go as a task's do (`handOver`); a pool whose workers store nothing refuses.
   */
  attach(
    matchId: string,
    telemetry: Buffer,
    now: number,
    handOver?: boolean,
  ): Promise<PrepareOutcome>;
  /**
   * Starts the workers now rather than at the first task: a worker's bootstrap runs at its
   * creator's priority until its first line lowers it, some 30 ms of CPU each for a thread
   * (more for a process) that would otherwise be taken from serving as the first match is
   * posted. Idle, a worker costs a few MB (a process, a Node process's own): its ingest code is
   * loaded at its first match.
   */
  start(): void;
  close(): Promise<void>;
}

/** Where a pool's workers run: threads of this process, or processes of their own. */
export type WorkerKind = 'thread' | 'process';

/** A worker with the tasks sent to it and not answered yet. */
interface Slot {
  send(id: number, task: PrepareTask | FileTask | AttachTask, handOver: boolean): void;
  stop(): Promise<void>;
  pending: Map<number, { resolve: (o: PrepareOutcome) => void; reject: (e: Error) => void }>;
}

/**
 * A pool of `size` (≥ 1) workers preparing matches with `config`, started at the first task
 * (or by `start`).
 * `nice`: the workers' scheduling niceness (0–19; Linux): `serve` lowers them (INGEST_NICE), so
 * that a posted match — the workers' start included — takes the CPU that serving leaves, not
 * half of a busy core; `gamedata ingest`, with nothing to serve, leaves them at its own.
 * `target`: the workers also store what they prepare, there (`serve`: its own store, so that
 * no posted match's writes run on the serving thread), or with `lookupOnly` only settle the
 * matches stored already (`gamedata ingest`); null leaves all of it to the caller.
 * `kind`: `thread` — a task's bytes move to the worker and back uncopied; `process`
 * (prepare-process.ts) — lowered whole, V8's helper threads with it, at the cost of the kernel
 * copying the bytes: what `serve` runs, so that posted matches do not slow what it serves.
 */
export function openPreparePool(
  size: number,
  config: PrepareConfig,
  nice = 0,
  target: StoreTarget | null = null,
  kind: WorkerKind = 'thread',
): PreparePool {
  const slots: Slot[] = [];
  let nextId = 0;
  let closed = false;
  const setup: WorkerSetup = { config, checkCode: matchInputCheckCode(), nice, target };
  const stores = target !== null && target.lookupOnly !== true;

  const startSlot = (): void => {
    const pending: Slot['pending'] = new Map();
    const answer = (id: number, outcome: PrepareOutcome): void => {
      const waiter = pending.get(id);
      pending.delete(id);
      waiter?.resolve(withBuffers(outcome));
    };
    const fail = (error: Error): void => {
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
      // A worker that died is replaced at the next task.
      const index = slots.indexOf(slot);
      if (index !== -1) slots.splice(index, 1);
    };
    const slot: Slot =
      kind === 'process'
        ? processSlot(setup, pending, answer, (error) => {
            if (!closed) fail(error);
          })
        : threadSlot(setup, pending, answer, fail, () => closed);
    slots.push(slot);
  };
  /** Starts the workers missing: all at first, and any that died since. */
  const fill = (): void => {
    while (slots.length < size) startSlot();
  };

  /** Sends a task to the least busy worker. */
  const dispatch = (
    task: PrepareTask | FileTask | AttachTask,
    handOver: boolean,
  ): Promise<PrepareOutcome> => {
    if (closed) return Promise.reject(new Error('the ingest worker pool is closed'));
    fill();
    const slot = slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.send(id, task, handOver);
    });
  };

  return {
    size,
    copies: kind === 'process',
    start() {
      if (!closed) fill();
    },
    prepare: (task, handOver = false) => dispatch(task, handOver),
    prepareFile(file, now) {
      if (kind === 'process') return Promise.reject(new Error(PROCESSES_TAKE_BYTES));
      return dispatch({ file, now }, false);
    },
    stores,
    attach(matchId, telemetry, now, handOver = false) {
      if (!stores) return Promise.reject(new Error('the ingest workers store nothing'));
      return dispatch({ attachTo: matchId, telemetry, now }, handOver);
    },
    async close() {
      closed = true;
      const ending = slots.splice(0);
      for (const slot of ending) {
        for (const waiter of slot.pending.values()) {
          waiter.reject(new Error('the ingest worker pool is closed'));
        }
      }
      await Promise.all(ending.map((slot) => slot.stop()));
    },
  };
}

/** A worker thread running prepare-worker, lowered to `setup.nice` (Linux; 0: as its creator). */
function threadSlot(
  setup: WorkerSetup,
  pending: Slot['pending'],
  answer: (id: number, outcome: PrepareOutcome) => void,
  fail: (error: Error) => void,
  closed: () => boolean,
): Slot {
  const worker: Worker = startModuleWorker(
    import.meta.url,
    'prepare-worker',
    { workerData: setup },
    LOWER_TO_WORKER_DATA_NICE,
  );
  worker.on('message', ({ id, outcome }: { id: number; outcome: PrepareOutcome }) =>
    answer(id, outcome),
  );
  worker.on('error', fail);
  worker.on('exit', (code) => {
    if (!closed()) fail(new Error(`an ingest worker thread stopped (exit code ${code})`));
  });
  return {
    pending,
    send(id, task, handOver) {
      const moved =
        handOver && !('file' in task)
          ? ownedArrayBuffers('source' in task ? [task.source, task.telemetry] : [task.telemetry])
          : [];
      worker.postMessage({ id, task }, moved);
    },
    async stop() {
      await worker.terminate();
    },
  };
}

const PROCESSES_TAKE_BYTES = 'a worker process is sent bytes, not files';

/** A worker process (prepare-process.ts); its bytes are copied by the kernel, handed over or not. */
function processSlot(
  setup: WorkerSetup,
  pending: Slot['pending'],
  answer: (id: number, outcome: PrepareOutcome) => void,
  exited: (error: Error) => void,
): Slot {
  const worker = startPrepareProcess(setup, answer, exited);
  return {
    pending,
    send(id, task) {
      if ('file' in task) throw new Error(PROCESSES_TAKE_BYTES);
      worker.send(id, task);
    },
    stop: () => worker.stop(),
  };
}

/** Buffers arrive from a worker as Uint8Arrays: make them Buffers again (no copy). */
function withBuffers(outcome: PrepareOutcome): PrepareOutcome {
  if (outcome.kind !== 'prepared') return outcome;
  const file = outcome.file && { gzip: bufferOf(outcome.file.gzip) };
  const documents = outcome.derived.documents.map((row) => {
    const columns: Record<string, unknown> = { ...row };
    for (const [column, value] of Object.entries(columns)) {
      if (value instanceof Uint8Array) columns[column] = bufferOf(value);
    }
    return columns as unknown as typeof row;
  });
  return { ...outcome, file, derived: { ...outcome.derived, documents } };
}
