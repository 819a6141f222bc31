/**
 * Recorded ranked stats and clan documents of the real service: kept as the bytes given and
 * served as recorded (only the top-level `links.self` rewritten), so data copied from the real
 * service is served without being re-derived. recording-precedence.ts says when a recording or
 * derived data is served.
 *
 * What a recording must name:
 * - its platform: the `platform` option (`gamedata ingest --platform steam`), else the shard in
 *   the document's own `links.self` (`https://api.pubg.com/shards/steam/…`); vendor names and
 *   operator aliases are understood; a platform-region shard stands for its platform;
 * - ranked stats: the player and season in `data.relationships` (the season must be one of the
 *   platform's); a clan: its id in `data.id` and `clanName`, `clanTag`, `clanLevel`;
 * - when it was recorded: the `recordedAt` option (`--recorded-at`), else the ingest time.
 *
 * A recorded clan also creates or updates the clan (name, tag, level), unless the stored clan
 * changed after the recording, so player statuses can name it.
 */
import { VENDOR_SHARD_ALIASES, resolveShard, type Platform } from '../domain/shards.ts';
import { findClan, upsertClan } from '../store/clans.ts';
import {
  putRecordedDocument,
  rankedRecordingId,
  type RecordedDocument,
} from '../store/recorded-documents.ts';
import { listSeasons } from '../store/seasons.ts';
import { ACCOUNT_ID_PATTERN, CLAN_ID_PATTERN, GAME_PLATFORMS } from './clan-input.ts';
import type { EntityResult } from './ingest-clan.ts';
import { IngestError } from './ingest-error.ts';
import type { IngestDeps } from './ingest-match.ts';
import { selfLinkRange } from './self-link-range.ts';
import {
  DOCUMENT_KINDS,
  announceDocumentChanges,
  playerTag,
  withDocumentChanges,
} from '../store/document-changes.ts';
import { MAX_CLOCK_SKEW_MS } from './validate-match.ts';
import { isObject, type Json } from '../domain/json-object.ts';
import { transactWithoutBlocking } from '../store/sqlite/lock-wait.ts';

export interface RecordingOptions {
  /** The file's bytes as given; the document re-serialized when absent (an item of an array). */
  raw?: Buffer;
  /** Platform shard the document was fetched from, when its links.self does not say. */
  platform?: string;
  /** When the real service gave the document, epoch ms (default: now). */
  recordedAt?: number;
}

/**
 * The JSON:API types of the recordings ingest takes (mastery ones: mastery-recorded.ts, season
 * stats: recorded-season-stats.ts).
 */
export const RECORDED_TYPES = [
  'rankedplayerstats',
  'clan',
  'weaponMasterySummary',
  'survivalMasterySummary',
  'playerSeason',
] as const;

/** The recorded type of a document (`data.type`), or null when it is not one taken here. */
export function recordedTypeOf(value: unknown): (typeof RECORDED_TYPES)[number] | null {
  if (!isObject(value) || !isObject(value.data)) return null;
  const type = value.data.type;
  return (RECORDED_TYPES as readonly unknown[]).includes(type)
    ? (type as (typeof RECORDED_TYPES)[number])
    : null;
}

/** Stores a recorded `rankedplayerstats` document. */
export async function ingestRecordedRanked(
  deps: IngestDeps,
  document: unknown,
  options: RecordingOptions,
): Promise<EntityResult> {
  const data = (document as { data: Json }).data;
  const accountId = relationshipId(data, 'player', new RegExp(ACCOUNT_ID_PATTERN));
  const seasonId = relationshipId(data, 'season', /^division\.bro\.official\.[a-z0-9-]+$/);
  if (!isObject(data.attributes) || !isObject(data.attributes.rankedGameModeStats)) {
    throw new IngestError('data/attributes/rankedGameModeStats', 'must be an object');
  }
  const platform = recordingPlatform(deps, document, options.platform);
  const recording = recordingOf(deps, document, options, {
    kind: 'rankedplayerstats',
    platform,
    id: rankedRecordingId(accountId, seasonId),
  });
  const seasons = await listSeasons(deps.store.db, platform);
  if (!seasons.some((season) => season.id === seasonId)) {
    throw new IngestError(
      'data/relationships/season',
      `${seasonId} is not a season of ${recording.platform}`,
    );
  }
  return putPlayerRecording(deps, recording, [accountId]);
}

/**
 * Stores a recording about players (stats, mastery; a batch names several), announcing their
 * player tags with it so their cached documents are rendered again.
 */
export async function putPlayerRecording(
  deps: IngestDeps,
  recording: RecordedDocument,
  accountIds: readonly string[],
): Promise<EntityResult> {
  const now = deps.clock.now();
  const tags = accountIds.map((id) => playerTag(recording.platform, id));
  const changed = await withDocumentChanges(deps.store.db, tags, now, () =>
    putRecordedDocument(deps.store.db, recording, now),
  );
  return recordingResult(changed, recording);
}

/** Stores a recorded `clan` document, and the clan it describes unless that changed since. */
export async function ingestRecordedClan(
  deps: IngestDeps,
  document: unknown,
  options: RecordingOptions,
): Promise<EntityResult> {
  const data = (document as { data: Json }).data;
  if (typeof data.id !== 'string' || !new RegExp(CLAN_ID_PATTERN).test(data.id)) {
    throw new IngestError('data/id', 'must be a clan id, clan.<32 hex>');
  }
  const clanId = data.id;
  const attributes = isObject(data.attributes) ? data.attributes : {};
  const { clanName: name, clanTag: tag, clanLevel: level } = attributes;
  if (typeof name !== 'string')
    throw new IngestError('data/attributes/clanName', 'must be a string');
  if (typeof tag !== 'string') throw new IngestError('data/attributes/clanTag', 'must be a string');
  if (!Number.isInteger(level) || (level as number) < 0) {
    throw new IngestError('data/attributes/clanLevel', 'must be a whole number');
  }
  const recording = recordingOf(deps, document, options, {
    kind: 'clan',
    platform: recordingPlatform(deps, document, options.platform),
    id: clanId,
  });
  const changed = await transactWithoutBlocking(deps.store, async (trx) => {
    if (!(await putRecordedDocument(trx, recording, deps.clock.now()))) return false;
    const stored = await findClan(trx, recording.platform, clanId);
    if (stored === null || stored.updatedAt <= recording.recordedAt) {
      await upsertClan(trx, {
        platform: recording.platform,
        id: clanId,
        name,
        tag,
        level: level as number,
        updatedAt: recording.recordedAt,
      });
    }
    await announceDocumentChanges(trx, [DOCUMENT_KINDS.clans], deps.clock.now());
    return true;
  });
  return recordingResult(changed, recording);
}

/** What ingesting a recording reports. */
export function recordingResult(changed: boolean, recording: RecordedDocument): EntityResult {
  return {
    status: changed ? 'ingested' : 'duplicate',
    kind: `recorded ${recording.kind}`,
    id: recording.id,
  };
}

/** The recording to store: its key, bytes, links.self range and time. */
export function recordingOf(
  deps: IngestDeps,
  document: unknown,
  options: RecordingOptions,
  key: { kind: string; platform: string; id: string },
): RecordedDocument {
  const now = deps.clock.now();
  const recordedAt = options.recordedAt ?? now;
  if (recordedAt > now + MAX_CLOCK_SKEW_MS) {
    throw new IngestError('recordedAt', `${new Date(recordedAt).toISOString()} lies in the future`);
  }
  const body = options.raw ?? Buffer.from(JSON.stringify(document));
  return { ...key, body, self: selfLinkRange(body), recordedAt };
}

/**
 * The platform a recording belongs to: the option, else the shard of its links.self, else what
 * the document itself names (`fallback`: a weapon mastery document's `platform` attribute).
 */
export function recordingPlatform(
  deps: IngestDeps,
  document: unknown,
  option: string | undefined,
  fallback?: string,
): Platform {
  const self = (document as { links?: { self?: unknown } }).links?.self;
  const fromLink =
    typeof self === 'string' ? /\/shards\/([A-Za-z0-9-]+)\//.exec(self)?.[1] : undefined;
  const spelling = option ?? fromLink ?? fallback;
  if (spelling === undefined) {
    throw new IngestError(
      'platform',
      'the document names no shard (no links.self); give the platform it was fetched from, e.g. --platform steam',
    );
  }
  const shard = resolveShard(spelling, { ...VENDOR_SHARD_ALIASES, ...deps.config.shardAliases });
  if (shard === null || !(GAME_PLATFORMS as readonly string[]).includes(shard.platform)) {
    throw new IngestError(
      'platform',
      `${spelling} is not a platform with players (${GAME_PLATFORMS.join(', ')})`,
    );
  }
  return shard.platform;
}

/** `data.relationships.<name>.data.id`, checked against a pattern. */
function relationshipId(data: Json, name: string, pattern: RegExp): string {
  const relationships = isObject(data.relationships) ? data.relationships : {};
  const link = relationships[name];
  const id = isObject(link) && isObject(link.data) ? link.data.id : undefined;
  if (typeof id !== 'string' || !pattern.test(id)) {
    throw new IngestError(`data/relationships/${name}`, `must name the ${name} (data.id)`);
  }
  return id;
}
