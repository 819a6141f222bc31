/**
 * What a prepare worker does with a task, wherever it runs — a worker thread of the main process
 * (prepare-worker.ts) or a process of its own (prepare-child.ts): prepare the match
 * (prepare-match.ts) and, for a pool given a store target, store it. It validates with the schema
 * check compiled from the source the pool sends (compile-match-input-check.ts), so TypeBox is
 * never loaded here; an input that check refuses goes back to be refused where the field it
 * breaks can be named.
 *
 * The ingest code is loaded at the first match, once the worker has lowered itself, so that
 * loading it takes only what serving leaves — loaded first, it stalled requests by 50–300 ms as
 * matches were posted; a worker never fed stays small. A store target's store and blob store
 * are opened at the first match stored, as the job thread opens its own: the match's writes —
 * tens of ms of SQLite a match of a hundred players, its commit included — then never hold up
 * the thread that serves, and they are announced in the database, which the serving thread
 * reads before it answers.
 */
import type { MatchInput } from './match-input.ts';
import type { PrepareConfig, PrepareOutcome, PrepareTask, SettleEarly } from './prepare-match.ts';
import type { StoreTarget } from './prepare-pool.ts';
import type { IngestDeps } from './ingest-deps.ts';
import type { ReusableBuffers } from './reusable-buffers.ts';
import type * as SourceFilesModule from './source-files.ts';
import type * as PrepareMatchModule from './prepare-match.ts';

/** What a worker is started with. */
export interface WorkerSetup {
  config: PrepareConfig;
  /** The source of the schema check (match-input-check.ts). */
  checkCode: string;
  /** The worker's scheduling niceness (0: its creator's). */
  nice: number;
  target: StoreTarget | null;
}

/**
 * A match file for a worker thread to read itself (prepareFile in prepare-pool.ts), validated
 * against `now`.
 */
export interface FileTask {
  file: string;
  now: number;
}

/**
 * A telemetry file for a stored match (`PUT /ingest/matches/:id/telemetry`), for a worker that
 * stores: read, checked, tallied and attached there (attachTelemetry), not on the serving thread,
 * whose event loop a 2–3 MB demo file held for up to 27–37 ms (a larger file, in proportion).
 */
export interface AttachTask {
  attachTo: string;
  telemetry: Uint8Array;
  now: number;
}

/**
 * An outcome, and the ArrayBuffers of it that may move rather than be copied. `release`, once
 * the outcome is sent (copied or moved), lets the buffer a file was read into take the next.
 */
export interface TaskDone {
  outcome: PrepareOutcome;
  owned: ArrayBuffer[];
  release?: () => void;
}

/** How a worker reads its file tasks: the code and the buffer each file is read into. */
interface FileReader {
  readMatchFile: typeof SourceFilesModule.readMatchFile;
  buffers: ReusableBuffers;
}

type IngestCode = typeof PrepareMatchModule & {
  assertSchema(input: unknown): asserts input is MatchInput;
};

/** Runs the tasks of a worker set up with `setup`; `close` closes its store, if it opened one. */
export function taskRunner(setup: WorkerSetup): {
  run(task: PrepareTask | FileTask | AttachTask): Promise<TaskDone>;
  close(): Promise<void>;
} {
  const { config, checkCode, target } = setup;
  let loaded: Promise<IngestCode> | null = null;
  // The files this worker reads, one after the other into one buffer (a file larger than
  // KEPT_FILE_BYTES gets its own). Nothing refers to a file's bytes once its outcome is sent:
  // the outcome holds no view of them but the telemetry text, which is left out, and a copy is
  // sent. Loaded, with the reading code, at the first file task.
  let fileReader: Promise<FileReader> | null = null;
  let stores: Promise<Omit<IngestDeps, 'clock'>> | null = null;

  /** The ingest code, loaded at the first match. */
  const ingestCode = (): Promise<IngestCode> =>
    (loaded ??= Promise.all([
      import('./compile-match-input-check.ts'),
      import('./prepare-match.ts'),
    ]).then(([{ compileMatchInputCheck }, prepare]) => {
      const check = compileMatchInputCheck(checkCode);
      return {
        ...prepare,
        assertSchema(input: unknown): asserts input is MatchInput {
          if (!check(input)) throw new prepare.SchemaRecheck();
        },
      };
    }));

  /** The stores of this worker, opened at the first match it stores. */
  const openStores = (storeTarget: StoreTarget): Promise<Omit<IngestDeps, 'clock'>> => {
    stores ??= (async () => {
      const { openThreadStores } = await import('../thread-stores.ts');
      const { blobs, store } = await openThreadStores(storeTarget.config, {
        schema: storeTarget.schema,
      });
      return { store, blobs, config: storeTarget.config };
    })();
    // A store that could not be opened fails this match; the next one tries again.
    stores.catch(() => (stores = null));
    return stores;
  };

  /** A prepared match stored, at the time it was read (`now`); anything else as it is. */
  const stored = async (
    code: IngestCode,
    prepared: PrepareOutcome,
    now: number,
  ): Promise<PrepareOutcome> => {
    if (prepared.kind !== 'prepared' || target === null || target.lookupOnly) return prepared;
    const matchId = prepared.match.input.id;
    try {
      const deps = { ...(await openStores(target)), clock: { now: () => now } };
      const { storePrepared } = await import('./ingest-prepared.ts');
      return { kind: 'stored', result: await storePrepared(deps, prepared) };
    } catch (error) {
      return { kind: 'error', error: code.errorOf(error), matchId };
    }
  };

  const files = (): Promise<FileReader> =>
    (fileReader ??= Promise.all([
      import('./source-files.ts'),
      import('./reusable-buffers.ts'),
    ]).then(([{ KEPT_FILE_BYTES, readMatchFile }, { reusableBuffers }]) => ({
      readMatchFile,
      buffers: reusableBuffers(1, KEPT_FILE_BYTES),
    })));

  /** A file task read (null: unreadable), with what gives its buffer back. */
  const readTask = async (
    task: FileTask,
  ): Promise<{ task: PrepareTask; release(): void } | null> => {
    const { readMatchFile, buffers } = await files();
    try {
      const { release, ...read } = await readMatchFile(task.file, buffers);
      return { task: { ...read, now: task.now }, release };
    } catch {
      return null;
    }
  };

  /**
   * A match stored already, settled before it is gzipped and rendered (prepareMatch's
   * `settleEarly`): a worker with a store, one it writes or only looks matches up in, looks first.
   */
  const settleEarly: SettleEarly | undefined =
    target === null
      ? undefined
      : async (match, text, now) => {
          const [deps, { settleWhenStored }] = await Promise.all([
            openStores(target),
            import('./ingest-match.ts'),
          ]);
          return settleWhenStored(deps)(match, text, now);
        };

  const runTask = async (task: PrepareTask): Promise<TaskDone> => {
    const code = await ingestCode();
    const done = await stored(
      code,
      await code.prepareMatch(task, config, code.assertSchema, settleEarly),
      task.now,
    );
    // Not a match here: its bytes go back to whoever ingests it now (the caller may have
    // handed them over).
    const outcome = done.kind === 'other' ? { ...done, source: task.source } : withoutText(done);
    return { outcome, owned: ownedOf(code, outcome) };
  };

  /** A telemetry file attached to its stored match, in this worker's store. */
  const attach = async (task: AttachTask): Promise<TaskDone> => {
    const code = await ingestCode();
    try {
      if (target === null || target.lookupOnly) throw new Error('this worker stores nothing');
      const deps = { ...(await openStores(target)), clock: { now: () => task.now } };
      const { attachTelemetry } = await import('./ingest-match.ts');
      const result = await attachTelemetry(deps, task.attachTo, code.bufferOf(task.telemetry));
      return { outcome: { kind: 'stored', result }, owned: [] };
    } catch (error) {
      return {
        outcome: { kind: 'error', error: code.errorOf(error), matchId: task.attachTo },
        owned: [],
      };
    }
  };

  return {
    async run(given) {
      if ('attachTo' in given) return attach(given);
      if (!('file' in given)) return runTask(given);
      const read = await readTask(given);
      if (read === null) return { outcome: { kind: 'other' }, owned: [] };
      const done = await runTask(read.task);
      // Not a match: whoever ingests it reads the file again; no bytes go back from here.
      if (done.outcome.kind === 'other') return { outcome: { kind: 'other' }, owned: [] };
      return { ...done, release: read.release };
    },
    async close() {
      const opened = stores;
      stores = null;
      if (opened) await (await opened).store.close().catch(() => undefined);
    },
  };
}

/**
 * The outcome without the telemetry's JSON text, a view into the task's bytes: sending it would
 * move those bytes (the whole input) back, whose garbage collector then runs a full collection
 * every match or two for that memory alone (V8 counts it as external memory pressure; 100 ms and
 * more a match on 19 MB files). The task's bytes stay here as garbage.
 */
function withoutText(outcome: PrepareOutcome): PrepareOutcome {
  if (outcome.kind !== 'prepared' || outcome.file === null) return outcome;
  return { ...outcome, file: { gzip: outcome.file.gzip } };
}

/** The outcome's buffers that own their memory, which may move instead of being copied. */
function ownedOf(code: IngestCode, outcome: PrepareOutcome): ArrayBuffer[] {
  if (outcome.kind === 'other') return code.ownedArrayBuffers([outcome.source]);
  if (outcome.kind !== 'prepared') return [];
  const views = [outcome.file?.gzip];
  for (const row of outcome.derived.documents) views.push(row.body_gzip);
  return code.ownedArrayBuffers(views);
}
