/**
 * A worker thread of the prepare pool: prepares the matches it is sent (prepare-match.ts) and
 * answers each with its outcome, under the task's number. It validates with the schema check
 * compiled from the source the pool sends (compile-match-input-check.ts), so TypeBox is never
 * loaded here; an input that check refuses goes back to the main thread to be refused there.
 *
 * A pool given a store target (prepare-pool.ts; `serve`'s) has its workers store what they
 * prepare, on a store and a blob store of their own opened from that config, as the job thread
 * does: the match's writes — tens of ms of SQLite a match of a hundred players, its commit
 * included — then never hold up the thread that serves. The store is opened at the first
 * match, and its writes are announced in the database, which the serving thread reads before
 * it answers.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../jobs/job-priority.ts';
import type { MatchInput } from './match-input.ts';
import type { PrepareConfig, PrepareOutcome, PrepareTask } from './prepare-match.ts';
import type { StoreTarget } from './prepare-pool.ts';
import type { IngestDeps } from './ingest-deps.ts';
import type * as PrepareMatchModule from './prepare-match.ts';

const { config, checkCode, nice, target } = workerData as {
  config: PrepareConfig;
  checkCode: string;
  nice: number;
  target: StoreTarget | null;
};
// Under tsx its bootstrap lowered the thread already. Built, this module's own imports are
// evaluated before its first line runs: the ingest code is loaded only once the thread is
// lowered, so that loading it takes only what serving leaves — loaded first, it stalled
// requests by 50–300 ms as matches were posted. It is loaded at the first match: `serve`
// starts its workers with the service (prepare-pool.ts), and one never fed stays small.
lowerThreadPriority(nice);

type IngestCode = typeof PrepareMatchModule & {
  assertSchema(input: unknown): asserts input is MatchInput;
};

let loaded: Promise<IngestCode> | null = null;

/** The ingest code, loaded at the first match. */
function ingestCode(): Promise<IngestCode> {
  loaded ??= Promise.all([
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
  });
  return loaded;
}

parentPort!.on('message', ({ id, task }: { id: number; task: PrepareTask }) => {
  void ingestCode().then(async (code) => {
    const prepared = await code.prepareMatch(task, config, code.assertSchema);
    const done = target === null ? prepared : await stored(code, prepared, task.now);
    // Not a match here: its bytes go back to whoever ingests it now (the caller may have
    // handed them over).
    const outcome = done.kind === 'other' ? { ...done, source: task.source } : withoutText(done);
    parentPort!.postMessage({ id, outcome }, transferList(code, outcome));
  });
});

let stores: Promise<Omit<IngestDeps, 'clock'>> | null = null;

/** The stores of this thread, opened at the first match it stores. */
function openStores(target: StoreTarget): Promise<Omit<IngestDeps, 'clock'>> {
  stores ??= (async () => {
    const { openThreadStores } = await import('../thread-stores.ts');
    const { blobs, store } = await openThreadStores(target.config, { schema: target.schema });
    parentPort!.once('close', () => void store.close().catch(() => undefined));
    return { store, blobs, config: target.config };
  })();
  // A store that could not be opened fails this match; the next one tries again.
  stores.catch(() => (stores = null));
  return stores;
}

/** A prepared match stored here, at the time it was read (`now`); anything else as it is. */
async function stored(
  code: IngestCode,
  prepared: PrepareOutcome,
  now: number,
): Promise<PrepareOutcome> {
  if (prepared.kind !== 'prepared') return prepared;
  const matchId = prepared.match.input.id;
  try {
    const deps = { ...(await openStores(target!)), clock: { now: () => now } };
    const { storePrepared } = await import('./ingest-prepared.ts');
    return { kind: 'stored', result: await storePrepared(deps, prepared) };
  } catch (error) {
    return { kind: 'error', error: code.errorOf(error), matchId };
  }
}

/**
 * The outcome without the telemetry's JSON text, a view into the task's bytes: sending it would
 * move those bytes (the whole input) back to the main thread, whose garbage collector then runs
 * a full collection every match or two for that memory alone (V8 counts it as external memory
 * pressure; 100 ms and more a match on 19 MB files). The task's bytes stay here as garbage.
 */
function withoutText(outcome: PrepareOutcome): PrepareOutcome {
  if (outcome.kind !== 'prepared' || outcome.file === null) return outcome;
  return { ...outcome, file: { gzip: outcome.file.gzip } };
}

/** What moves back instead of being copied: the outcome's buffers that own their memory. */
function transferList(code: IngestCode, outcome: PrepareOutcome): ArrayBuffer[] {
  if (outcome.kind === 'other') return code.ownedArrayBuffers([outcome.source]);
  if (outcome.kind !== 'prepared') return [];
  const views = [outcome.file?.gzip];
  for (const row of outcome.derived.documents) views.push(row.body_gzip);
  return code.ownedArrayBuffers(views);
}
