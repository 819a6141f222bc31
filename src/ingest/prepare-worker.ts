/**
 * A worker thread of the prepare pool: prepares the matches it is sent (prepare-match.ts) and
 * answers each with its outcome, under the task's number. It validates with the schema check
 * compiled from the source the pool sends (compile-match-input-check.ts), so TypeBox is never
 * loaded here; an input that check refuses goes back to the main thread to be refused there.
 */
import { parentPort, workerData } from 'node:worker_threads';
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

const { config, checkCode } = workerData as { config: PrepareConfig; checkCode: string };
const check = compileMatchInputCheck(checkCode);

function assertSchema(input: unknown): asserts input is MatchInput {
  if (!check(input)) throw new SchemaRecheck();
}

parentPort!.on('message', (message: { id: number; task: PrepareTask }) => {
  void prepareMatch(message.task, config, assertSchema).then((outcome) =>
    parentPort!.postMessage({ id: message.id, outcome }, transferList(message.task, outcome)),
  );
});

/**
 * What moves back instead of being copied: the task's bytes (this thread's own copy; the
 * telemetry text is a view into them) and the outcome's buffers that own their memory.
 */
function transferList(task: PrepareTask, outcome: PrepareOutcome): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const view of [task.source, task.telemetry]) {
    if (view?.buffer instanceof ArrayBuffer) buffers.add(view.buffer);
  }
  if (outcome.kind === 'prepared') {
    const views = [outcome.file?.gzip, outcome.file?.plain];
    for (const row of outcome.derived.documents) views.push(row.body_gzip);
    for (const buffer of ownedArrayBuffers(views)) buffers.add(buffer);
  }
  return [...buffers];
}
