/**
 * Recorded seasons lists, leaderboard pages and samples of an upstream (UPSTREAM_URL): kept as
 * the bytes it sent (its links already naming this service) under the lookup they answer, and
 * served as recorded while an upstream is configured. What this service builds itself from its
 * own matches is served only when none is recorded (src/upstream/mirror-documents.ts).
 *
 * | kind | what it must hold | id |
 * |---|---|---|
 * | `seasonList` | `data`, a list of `season` | the shard as asked |
 * | `leaderboard` | `data.type` `leaderboard` | shard, season or game mode, page (the route's) |
 * | `sample` | `data.type` `sample` | shard and `filter[createdAt-start]` (or `latest`) |
 */
import { DOCUMENT_KINDS, withDocumentChanges } from '../store/document-changes.ts';
import { putRecordedDocument } from '../store/recorded-documents.ts';
import type { EntityResult } from './ingest-clan.ts';
import { IngestError } from './ingest-error.ts';
import type { IngestDeps } from './ingest-match.ts';
import { recordingOf, recordingResult, type RecordingOptions } from './recorded-documents.ts';
import { isObject } from '../domain/json-object.ts';

/** The recorded list kinds, and the document-cache tag a change of each announces. */
export const RECORDED_LIST_KINDS = {
  seasonList: DOCUMENT_KINDS.seasons,
  leaderboard: DOCUMENT_KINDS.leaderboards,
  sample: DOCUMENT_KINDS.samples,
} as const;

export type RecordedListKind = keyof typeof RECORDED_LIST_KINDS;

/** Whether `kind` is one of the recorded list kinds. */
export const isRecordedListKind = (kind: string): kind is RecordedListKind =>
  Object.hasOwn(RECORDED_LIST_KINDS, kind);

/**
 * Stores a recorded seasons list, leaderboard or sample under `listId` on `options.platform`
 * (required: these documents name no player to find it by). Throws IngestError when the
 * document is not of the kind.
 */
export async function ingestRecordedList(
  deps: IngestDeps,
  document: unknown,
  options: RecordingOptions & { kind: RecordedListKind; listId: string },
): Promise<EntityResult> {
  const data = isObject(document) ? document.data : undefined;
  if (options.kind === 'seasonList') {
    if (!Array.isArray(data)) throw new IngestError('data', 'must be a list of season');
    data.forEach((item, index) => {
      if (!isObject(item) || item.type !== 'season' || typeof item.id !== 'string') {
        throw new IngestError(`data/${index}`, 'must be a season with an id');
      }
    });
  } else if (!isObject(data) || data.type !== options.kind) {
    throw new IngestError('data/type', `must be ${options.kind}`);
  }
  if (options.platform === undefined) {
    throw new IngestError('platform', 'give the platform the document was fetched from');
  }
  const recording = recordingOf(deps, document, options, {
    kind: options.kind,
    platform: options.platform,
    id: options.listId,
  });
  const now = deps.clock.now();
  const changed = await withDocumentChanges(
    deps.store.db,
    [RECORDED_LIST_KINDS[options.kind]],
    now,
    () => putRecordedDocument(deps.store.db, recording, now),
  );
  return recordingResult(changed, recording);
}
