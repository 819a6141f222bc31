/**
 * Documents of the real service kept as recorded, to be served byte for byte (only their
 * top-level `links.self` rewritten). One generic table for every kind, keyed by
 * (kind, platform, id):
 *
 * | kind (the document's `data.type`) | id |
 * |---|---|
 * | `rankedplayerstats` | `<accountId>:<seasonId>` |
 * | `clan` | the clan id |
 * | `weaponMasterySummary`, `survivalMasterySummary` (free for mastery) | the account id |
 *
 * Of two recordings of one resource the later `recorded_at` is kept.
 */
import type { Db } from './store.ts';

export interface RecordedDocument {
  kind: string;
  platform: string;
  id: string;
  /** The document's bytes as given. */
  body: Buffer;
  /** Byte range of the top-level `links.self` string (quotes included); null when it has none. */
  self: { start: number; end: number } | null;
  /** When the real service gave it, epoch ms. */
  recordedAt: number;
}

/** The id a ranked stats recording is kept under. */
export const rankedRecordingId = (accountId: string, seasonId: string): string =>
  `${accountId}:${seasonId}`;

/**
 * Stores a recording unless one recorded later, or the same bytes, is already kept; returns
 * whether it changed anything. One statement (a conditional upsert), so it is safe beside
 * concurrent writers and inside a caller's transaction.
 */
export async function putRecordedDocument(
  db: Db,
  document: RecordedDocument,
  ingestedAt: number,
): Promise<boolean> {
  const written = await db
    .insertInto('recorded_documents')
    .values({
      kind: document.kind,
      platform: document.platform,
      id: document.id,
      body: document.body,
      self_start: document.self?.start ?? -1,
      self_end: document.self?.end ?? -1,
      recorded_at: document.recordedAt,
      ingested_at: ingestedAt,
    })
    .onConflict((oc) =>
      oc
        .columns(['kind', 'platform', 'id'])
        .doUpdateSet((eb) => ({
          body: eb.ref('excluded.body'),
          self_start: eb.ref('excluded.self_start'),
          self_end: eb.ref('excluded.self_end'),
          recorded_at: eb.ref('excluded.recorded_at'),
          ingested_at: eb.ref('excluded.ingested_at'),
        }))
        .where((eb) =>
          eb.and([
            eb('recorded_documents.recorded_at', '<=', eb.ref('excluded.recorded_at')),
            eb('recorded_documents.body', '<>', eb.ref('excluded.body')),
          ]),
        ),
    )
    .returning('id')
    .executeTakeFirst();
  return written !== undefined;
}

/** One recording by its key; null when none is kept. */
export async function findRecordedDocument(
  db: Db,
  kind: string,
  platform: string,
  id: string,
): Promise<RecordedDocument | null> {
  const row = await db
    .selectFrom('recorded_documents')
    .select(['body', 'self_start', 'self_end', 'recorded_at'])
    .where('kind', '=', kind)
    .where('platform', '=', platform)
    .where('id', '=', id)
    .executeTakeFirst();
  if (row === undefined) return null;
  const start = Number(row.self_start);
  return {
    kind,
    platform,
    id,
    body: Buffer.from(row.body),
    self: start < 0 ? null : { start, end: Number(row.self_end) },
    recordedAt: Number(row.recorded_at),
  };
}
