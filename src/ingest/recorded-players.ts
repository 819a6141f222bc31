/**
 * Player documents of an upstream kept as recorded: the mirror's read-through of players is one
 * more source of ingest, storing what the upstream answered so that a mirrored player is served
 * as the upstream last said — its name, ban type, clan and match list — not re-derived from the
 * matches this service happens to hold. Two kinds in the recorded documents store:
 *
 * | kind | id | bytes |
 * |---|---|---|
 * | `player` | the account id | a single player's answer as given; for a player met in a list, `{"data":<its resource>,"links":{"self":…},"meta":{}}` |
 * | `playerList` | the lookup, `names:<sorted names>` or `ids:<sorted ids>` | the list answer as given |
 *
 * recording-precedence.ts decides against what matches played later derive.
 */
import { putRecordedDocument } from '../store/recorded-documents.ts';
import { nameTag, playerTag, withDocumentChanges } from '../store/document-changes.ts';
import { ACCOUNT_ID_PATTERN } from './clan-input.ts';
import { IngestError } from './ingest-error.ts';
import type { IngestDeps } from './ingest-match.ts';
import { recordingOf, recordingPlatform, type RecordingOptions } from './recorded-documents.ts';
import { isObject, type Json } from '../domain/json-object.ts';

/** The id a recorded players list is kept under: the filter and its values, sorted. */
export const playerListRecordingId = (by: 'names' | 'ids', values: readonly string[]): string =>
  `${by}:${[...values].sort().join(',')}`;

/** A recorded player resource: its account id, name and match ids. */
export interface RecordedPlayer {
  accountId: string;
  name: string | null;
  matchIds: string[];
}

/**
 * Stores an upstream players answer: a single player (`data` an object) under its account id,
 * or a list (`data` an array) under `listId` and each of its players under theirs. Returns the
 * players it names. Throws IngestError when it is not a players document.
 */
export async function ingestRecordedPlayers(
  deps: IngestDeps,
  document: unknown,
  options: RecordingOptions & { listId?: string },
): Promise<RecordedPlayer[]> {
  const data = isObject(document) ? document.data : undefined;
  const items = Array.isArray(data) ? data : [data];
  const pattern = new RegExp(ACCOUNT_ID_PATTERN);
  const players = items.map((item, index) => {
    if (!isObject(item) || item.type !== 'player' || typeof item.id !== 'string') {
      throw new IngestError(`data/${index}`, 'must be a player resource');
    }
    if (!pattern.test(item.id)) throw new IngestError(`data/${index}/id`, 'must be an account id');
    return item;
  });
  const platform = recordingPlatform(deps, document, options.platform);
  const recordings = players.map((item) =>
    recordingOf(
      deps,
      document,
      Array.isArray(data) ? { ...options, raw: resourceBytes(item) } : options,
      {
        kind: 'player',
        platform,
        id: item.id as string,
      },
    ),
  );
  if (Array.isArray(data)) {
    if (options.listId === undefined)
      throw new IngestError('listId', 'a players list needs its lookup');
    recordings.push(
      recordingOf(deps, document, options, { kind: 'playerList', platform, id: options.listId }),
    );
  }
  const found = players.map(recordedPlayer);
  const tags = found.flatMap((player) => [
    playerTag(platform, player.accountId),
    ...(player.name === null ? [] : [nameTag(platform, player.name)]),
  ]);
  const now = deps.clock.now();
  await withDocumentChanges(deps.store.db, tags, now, async () => {
    for (const recording of recordings) await putRecordedDocument(deps.store.db, recording, now);
  });
  return found;
}

/** A player resource met in a list, as the document of that player alone. */
function resourceBytes(item: Json): Buffer {
  const links = isObject(item.links) ? item.links : {};
  const self = typeof links.self === 'string' ? links.self : '';
  return Buffer.from(JSON.stringify({ data: item, links: { self }, meta: {} }));
}

function recordedPlayer(item: Json): RecordedPlayer {
  const attributes = isObject(item.attributes) ? item.attributes : {};
  const matches = isObject(item.relationships) ? item.relationships.matches : undefined;
  const refs = isObject(matches) && Array.isArray(matches.data) ? matches.data : [];
  return {
    accountId: item.id as string,
    name: typeof attributes.name === 'string' ? attributes.name : null,
    matchIds: refs.filter(isObject).map((ref) => String(ref.id)),
  };
}
