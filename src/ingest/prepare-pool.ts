/**
 * Worker threads that prepare matches (parse, validate, gzip telemetry, render, tally mastery)
 * while the main thread writes: with several matches to ingest, the next ones are prepared on
 * the other cores as the current one commits — SQLite has one writer. Each task goes to the
 * least busy worker. `serve`'s pool stores the matches as well, from its workers' own store
 * connections, so that the serving thread only receives the bytes and answers.
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

/**
 * Where a pool's workers store what they prepare: the store and blob store `config` names
 * (`schema`: a PostgreSQL schema other than the search path's, for tests).
 */
export interface StoreTarget {
  config: Config;
  schema?: string;
}

/** A pool of prepare workers; `close` ends them (tasks still pending then are rejected). */
export interface PreparePool {
  readonly size: number;
  /**
   * Prepares a match in a worker. `handOver`: the task's bytes move to the worker instead of
   * being copied, leaving the caller's Buffers empty — for a caller that is done with them.
   */
  prepare(task: PrepareTask, handOver?: boolean): Promise<PrepareOutcome>;
  /**
   * Starts the threads now rather than at the first task: a thread's bootstrap runs at its
   * creator's priority until its first line lowers it, some 30 ms of CPU each that would
   * otherwise be taken from serving as the first match is posted. Idle, a thread costs a few
   * MB: its ingest code is loaded at its first match.
   */
  start(): void;
  close(): Promise<void>;
}

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (o: PrepareOutcome) => void; reject: (e: Error) => void }>;
}

/** A worker running prepare-worker with `config`, at niceness `nice` (Linux; 0: as its creator). */
function startWorker(config: PrepareConfig, nice: number, target: StoreTarget | null): Worker {
  const workerData = { config, checkCode: matchInputCheckCode(), nice, target };
  return startModuleWorker(
    import.meta.url,
    'prepare-worker',
    { workerData },
    LOWER_TO_WORKER_DATA_NICE,
  );
}

/**
 * A pool of `size` (≥ 1) workers preparing matches with `config`, started at the first task
 * (or by `start`).
 * `nice`: the workers' scheduling niceness (0–19; Linux): `serve` lowers them (INGEST_NICE), so
 * that a posted match — the workers' start included — takes the CPU that serving leaves, not
 * half of a busy core; `gamedata ingest`, with nothing to serve, leaves them at its own.
 * `target`: the workers also store what they prepare, there (`serve`: its own store, so that
 * no posted match's writes run on the serving thread); null leaves storing to the caller.
 */
export function openPreparePool(
  size: number,
  config: PrepareConfig,
  nice = 0,
  target: StoreTarget | null = null,
): PreparePool {
  const slots: Slot[] = [];
  let nextId = 0;
  let closed = false;

  const startSlot = (): void => {
    const slot: Slot = { worker: startWorker(config, nice, target), pending: new Map() };
    slot.worker.on('message', ({ id, outcome }: { id: number; outcome: PrepareOutcome }) => {
      const waiter = slot.pending.get(id);
      slot.pending.delete(id);
      waiter?.resolve(withBuffers(outcome));
    });
    const fail = (error: Error): void => {
      for (const waiter of slot.pending.values()) waiter.reject(error);
      slot.pending.clear();
      // A worker that died is replaced at the next task.
      const index = slots.indexOf(slot);
      if (index !== -1) slots.splice(index, 1);
    };
    slot.worker.on('error', fail);
    slot.worker.on('exit', (code) => {
      if (!closed) fail(new Error(`an ingest worker thread stopped (exit code ${code})`));
    });
    slots.push(slot);
  };
  /** Starts the workers missing: all at first, and any that died since. */
  const fill = (): void => {
    while (slots.length < size) startSlot();
  };

  return {
    size,
    start() {
      if (!closed) fill();
    },
    prepare(task, handOver = false) {
      if (closed) return Promise.reject(new Error('the ingest worker pool is closed'));
      fill();
      const slot = slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        slot.pending.set(id, { resolve, reject });
        const moved = handOver ? ownedArrayBuffers([task.source, task.telemetry]) : [];
        slot.worker.postMessage({ id, task }, moved);
      });
    },
    async close() {
      closed = true;
      const ending = slots.splice(0);
      for (const slot of ending) {
        for (const waiter of slot.pending.values()) {
          waiter.reject(new Error('the ingest worker pool is closed'));
        }
      }
      await Promise.all(ending.map((slot) => slot.worker.terminate()));
    },
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
