/**
 * Telemetry for a match stored without it: the file is put in the blob store and the match's
 * documents are re-rendered with their asset, all while the match's row is claimed in one
 * transaction — so no reader ever sees an asset whose file is not there yet, and two concurrent
 * attaches cannot both write. The same file again changes nothing; a different one is refused,
 * never swapped in behind a URL clients may have cached.
 */
import { buffer } from 'node:stream/consumers';
import { canonicalMatchDocumentVariant } from '../presenters/match-document.ts';
import { claimTelemetryKey, findStoredMatch, type StoredMatch } from '../store/ingest-writes.ts';
import {
  deleteRenderedDocuments,
  findMatchRecord,
  findRecordedDocument,
  saveMatchDocument,
} from '../store/match-documents.ts';
import { MatchNotStoredError, TelemetryConflictError } from './ingest-error.ts';
import type { IngestDeps } from './ingest-deps.ts';
import { renderDocumentRow } from './load-match-document.ts';
import { isSameTelemetry, type TelemetryFile } from './telemetry-file.ts';
import { addLateTelemetryMastery } from './mastery-late-telemetry.ts';
import { announceDocumentChanges } from '../store/document-changes.ts';
import { transactWithoutBlocking } from '../store/sqlite/lock-wait.ts';

/**
 * Gives a stored match its telemetry file, stored under `key` when it has none yet. Returns
 * 'attached' or 'unchanged' (it has exactly this file); throws TelemetryConflictError when it
 * has a different one, MatchNotStoredError when the match is gone.
 */
export async function attachTelemetryFile(
  deps: IngestDeps,
  match: StoredMatch,
  file: TelemetryFile,
  key: string,
): Promise<'attached' | 'unchanged'> {
  if (match.telemetryKey !== null) return compareStored(deps, match.id, match.telemetryKey, file);
  const variant = canonicalMatchDocumentVariant(match.platform, deps.config);
  const claimed = await transactWithoutBlocking(deps.store, async (trx) => {
    if (!(await claimTelemetryKey(trx, match.id, key))) return false;
    const tags = await addLateTelemetryMastery(trx, deps.store, match.id, file.events);
    await deps.blobs.put(key, file.gzip);
    // Read first: the participants' stats may be kept in the documents about to be dropped.
    const record = await findMatchRecord(trx, match.id);
    await deleteRenderedDocuments(trx, match.id);
    if (record !== null) {
      const recorded = await findRecordedDocument(trx, match.id);
      await saveMatchDocument(trx, await renderDocumentRow(record, variant, recorded));
    }
    await announceDocumentChanges(trx, tags, deps.clock.now());
    return true;
  });
  if (claimed) return 'attached';
  // Another ingest attached a file first (or the match was purged meanwhile).
  const now = await findStoredMatch(deps.store.db, match.id);
  if (now === null || now.telemetryKey === null) throw new MatchNotStoredError(match.id);
  return compareStored(deps, match.id, now.telemetryKey, file);
}

async function compareStored(
  deps: IngestDeps,
  matchId: string,
  key: string,
  file: TelemetryFile,
): Promise<'attached' | 'unchanged'> {
  const found = await checkStoredFile(deps, matchId, key, (stored) =>
    isSameTelemetry(stored, file),
  );
  if (found === 'same') return 'unchanged';
  // The match names a file the blob store lost: this one restores it.
  await deps.blobs.put(key, file.gzip);
  return 'attached';
}

/**
 * The stored telemetry file of `matchId` (under `key`) held against what was sent: `same` when
 * `isSame` says so of its gzip bytes, `lost` when the blob store no longer has it;
 * TelemetryConflictError when it is another file.
 */
export async function checkStoredFile(
  deps: Pick<IngestDeps, 'blobs'>,
  matchId: string,
  key: string,
  isSame: (storedGzip: Buffer) => Promise<boolean>,
): Promise<'same' | 'lost'> {
  const blob = await deps.blobs.get(key);
  if (blob === null) return 'lost';
  if (await isSame(await buffer(blob.stream))) return 'same';
  throw new TelemetryConflictError(matchId);
}
