/**
 * A worker thread of the prepare pool: prepares the matches it is sent (prepare-match.ts) and
 * answers each with its outcome, under the task's number. It validates with the schema check
 * compiled from the source the pool sends (compile-match-input-check.ts), so TypeBox is never
 * loaded here; an input that check refuses goes back to the main thread to be refused there.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../jobs/job-priority.ts';
import { compileMatchInputCheck } from './compile-match-input-check.ts';
import type { MatchInput } from './match-input.ts';
import {
  ownedArrayBuffers,
  prepareMatch,
  SchemaRecheck,
  type PrepareConfig,
  type PrepareOutcome,
  type PrepareTask,
} from './prepare-match.ts';

const { config, checkCode, nice } = workerData as {
  config: PrepareConfig;
  checkCode: string;
  nice: number;
};
// Built, nothing ran before this module; under tsx its bootstrap lowered the thread already.
lowerThreadPriority(nice);
const check = compileMatchInputCheck(checkCode);

function assertSchema(input: unknown): asserts input is MatchInput {
  if (!check(input)) throw new SchemaRecheck();
}

parentPort!.on('message', (message: { id: number; task: PrepareTask }) => {
  void prepareMatch(message.task, config, assertSchema).then((prepared) => {
    // Not a match here: its bytes go back to whoever ingests it now (the caller may have
    // handed them over).
    const outcome =
      prepared.kind === 'other'
        ? { ...prepared, source: message.task.source }
        : withoutText(prepared);
    parentPort!.postMessage({ id: message.id, outcome }, transferList(outcome));
  });
});

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
function transferList(outcome: PrepareOutcome): ArrayBuffer[] {
  if (outcome.kind === 'other') return ownedArrayBuffers([outcome.source]);
  if (outcome.kind !== 'prepared') return [];
  const views = [outcome.file?.gzip];
  for (const row of outcome.derived.documents) views.push(row.body_gzip);
  return ownedArrayBuffers(views);
}
