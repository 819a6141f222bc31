/**
 * The files of a directory ingested through the prepare pool: a few files ahead are read and
 * prepared by worker threads while the main thread stores the current one, in name order.
 * Anything the pool does not take as a match in the ingest format (arrays, recorded documents,
 * clans, unreadable files) is handed back to be ingested file by file as without a pool.
 */
import type { IngestDeps, IngestResult } from './ingest-deps.ts';
import { storePrepared } from './ingest-prepared.ts';
import type { PrepareOutcome } from './prepare-match.ts';
import type { PreparePool } from './prepare-pool.ts';

/** One file's outcome; `null` when the caller ingests it itself. */
export type PooledResult =
  | { status: IngestResult['status']; matchId: string }
  | { status: 'error'; message: string; matchId?: string }
  | null;

/**
 * Ingests `files` in order, each reported as soon as it is stored; `fallback` ingests a file the
 * pool does not take.
 */
export async function ingestFilesPooled(
  deps: IngestDeps,
  pool: PreparePool,
  files: readonly string[],
  report: (file: string, result: Exclude<PooledResult, null>) => void,
  fallback: (file: string) => Promise<void>,
): Promise<void> {
  // Enough files in flight to keep every worker busy while one is stored.
  const ahead = pool.size * 2;
  const pending: Promise<PrepareOutcome>[] = [];
  let next = 0;
  const fill = (): void => {
    while (next < files.length && pending.length < ahead)
      pending.push(prepare(deps, pool, files[next++]!));
  };
  fill();
  for (const file of files) {
    const outcome = await pending.shift()!;
    fill();
    const result = await storeOutcome(deps, outcome);
    if (result === null) await fallback(file);
    else report(file, result);
  }
}

/**
 * Has the pool read and prepare a match file. Unreadable, or no match: `other`, ingested
 * without the pool, which reports it as it always has.
 */
function prepare(deps: IngestDeps, pool: PreparePool, file: string): Promise<PrepareOutcome> {
  return pool.prepareFile(file, deps.clock.now()).catch(() => ({ kind: 'other' }) as const);
}

/** Stores a prepared match as a file's result; null when it is not one for the pool to store. */
export async function storeOutcome(
  deps: IngestDeps,
  outcome: PrepareOutcome,
): Promise<PooledResult> {
  if (outcome.kind === 'other') return null;
  const matchId =
    outcome.kind === 'prepared'
      ? outcome.match.input.id
      : outcome.kind === 'stored'
        ? outcome.result.matchId
        : outcome.matchId;
  try {
    const { status } = await storePrepared(deps, outcome);
    return { status, matchId: matchId! };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'error', message, ...(matchId ? { matchId } : {}) };
  }
}
