/**
 * Rendering match documents to the bytes the store keeps: at ingest (the canonical variant), when
 * telemetry arrives for a stored match, and on the first request for another variant (a shard
 * alias). A match that entered as a recorded document is rendered from its recorded bytes (links
 * rewritten only), any other from its record (findMatchRecord: its row, and its members as its
 * canonical rendering names them).
 */
import {
  documentEtag,
  matchDocumentVariantKey,
  renderMatchDocument,
  type MatchDocumentVariant,
  type MatchRecord,
} from '../presenters/match-document.ts';
import { servesPlatform } from '../domain/shards.ts';
import { renderRecordedMatchDocument } from '../presenters/recorded-match-document.ts';
import {
  documentRowVariant,
  findMatchDocument,
  findMatchRecord,
  findRecordedDocument,
  saveMatchDocument,
  storedMatchDocument,
  type StoredMatchDocument,
} from '../store/match-documents.ts';
import type { MatchDocumentsTable } from '../store/schema.ts';
import type { Store } from '../store/store.ts';
import { writeWithoutBlocking } from '../store/sqlite/lock-wait.ts';
import { gzipHere } from './thread-gzip.ts';

/**
 * The row of one variant of a match's document: the gzip of its UTF-8 bytes and their ETag,
 * keyed by the variant and the telemetry state it shows. `recorded` is the recorded document, if
 * the match entered as one.
 */
export async function renderDocumentRow(
  match: MatchRecord,
  variant: MatchDocumentVariant,
  recorded: Buffer | null,
): Promise<MatchDocumentsTable> {
  const text =
    recorded === null
      ? renderMatchDocument(match, variant)
      : renderRecordedMatchDocument(recorded.toString('utf8'), match, variant);
  const body = Buffer.from(text);
  return {
    match_id: match.id,
    variant: documentRowVariant(matchDocumentVariantKey(variant), match.hasTelemetry),
    etag: documentEtag(body),
    body_gzip: await gzipHere(body),
    created_at: match.createdAt,
  };
}

/**
 * The document of a match in one variant, or null when the match is not stored (or not on the
 * variant's platforms). One indexed read when the variant was rendered before; otherwise the
 * match is read, rendered once and stored for the next request.
 */
export async function loadMatchDocument(
  store: Store,
  matchId: string,
  variant: MatchDocumentVariant,
): Promise<StoredMatchDocument | null> {
  const stored = await findMatchDocument(store.db, matchId, matchDocumentVariantKey(variant));
  if (stored) return stored;

  // A match is only rendered for a shard of its own platform (or one spanning it, `console`):
  // nobody can fill the table with documents of shards the match does not belong to.
  const match = await findMatchRecord(store.db, matchId, (platform) =>
    servesPlatform(variant.shard, platform),
  );
  if (match === null) return null;
  const row = await renderDocumentRow(
    match,
    variant,
    await findRecordedDocument(store.db, matchId),
  );
  // Saved from the serving thread: a job holding SQLite's write lock is waited for with timers.
  await writeWithoutBlocking(store, (db) => saveMatchDocument(db, row));
  const facts = {
    etag: row.etag,
    createdAt: match.createdAt,
    platform: match.platform,
    hasTelemetry: match.hasTelemetry,
  };
  return storedMatchDocument(facts, row.body_gzip);
}
