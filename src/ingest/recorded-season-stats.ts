/**
 * Recorded season and lifetime stats documents (`playerSeason`) of the real service or an
 * upstream, kept as the bytes given and served as recorded — only the top-level `links.self`
 * rewritten — while no match played after the recording counts toward them
 * (recording-precedence.ts). Kept under `<accountId>:<seasonId>` (`lifetime` for lifetime); a
 * batch answer (a list of them, one game mode) as `playerSeasonList` under its lookup. A
 * recording must name the player and the season in `data.relationships` (a season of its
 * platform, or `lifetime`) and hold `data.attributes.gameModeStats`, an object.
 */
import { LIFETIME } from '../domain/seasons.ts';
import { rankedRecordingId } from '../store/recorded-documents.ts';
import { listSeasons } from '../store/seasons.ts';
import { ACCOUNT_ID_PATTERN } from './clan-input.ts';
import type { EntityResult } from './ingest-clan.ts';
import { IngestError } from './ingest-error.ts';
import type { IngestDeps } from './ingest-match.ts';
import {
  recordingOf,
  recordingPlatform,
  putPlayerRecording,
  type RecordingOptions,
} from './recorded-documents.ts';
import { isObject, type Json } from '../domain/json-object.ts';

/** The id a season stats recording is kept under (the same shape as ranked stats'). */
export const seasonStatsRecordingId = rankedRecordingId;

/** Stores a recorded `playerSeason` document. */
export async function ingestRecordedSeasonStats(
  deps: IngestDeps,
  document: unknown,
  options: RecordingOptions,
): Promise<EntityResult> {
  const data = (document as { data: Json }).data;
  const relationships = isObject(data.relationships) ? data.relationships : {};
  const idOf = (name: string): unknown => {
    const link = relationships[name];
    return isObject(link) && isObject(link.data) ? link.data.id : undefined;
  };
  const accountId = idOf('player');
  if (typeof accountId !== 'string' || !new RegExp(ACCOUNT_ID_PATTERN).test(accountId)) {
    throw new IngestError('data/relationships/player', 'must name the player (data.id)');
  }
  const seasonId = idOf('season');
  if (typeof seasonId !== 'string') {
    throw new IngestError('data/relationships/season', 'must name the season (data.id)');
  }
  if (!isObject(data.attributes) || !isObject(data.attributes.gameModeStats)) {
    throw new IngestError('data/attributes/gameModeStats', 'must be an object');
  }
  const platform = recordingPlatform(deps, document, options.platform);
  if (seasonId !== LIFETIME) {
    const seasons = await listSeasons(deps.store.db, platform);
    if (!seasons.some((season) => season.id === seasonId)) {
      throw new IngestError(
        'data/relationships/season',
        `${seasonId} is not a season of ${platform}`,
      );
    }
  }
  const recording = recordingOf(deps, document, options, {
    kind: 'playerSeason',
    platform,
    id: seasonStatsRecordingId(accountId, seasonId),
  });
  return putPlayerRecording(deps, recording, [accountId]);
}

/** The id a batch season stats recording is kept under: season, game mode and sorted ids. */
export const seasonStatsListRecordingId = (
  seasonId: string,
  gameMode: string,
  accountIds: readonly string[],
): string => `${seasonId}:${gameMode}:${[...accountIds].sort().join(',')}`;

/**
 * Stores a recorded batch season stats answer (`data` a list of `playerSeason`) under `listId`
 * (seasonStatsListRecordingId). Throws IngestError when it is not one.
 */
export async function ingestRecordedSeasonStatsList(
  deps: IngestDeps,
  document: unknown,
  options: RecordingOptions & { listId: string },
): Promise<EntityResult> {
  const data = isObject(document) ? document.data : undefined;
  if (!Array.isArray(data)) throw new IngestError('data', 'must be a list of playerSeason');
  const accountIds = data.map((item, index) => {
    const player = isObject(item) && isObject(item.relationships) ? item.relationships.player : {};
    const id = isObject(player) && isObject(player.data) ? player.data.id : undefined;
    if (!isObject(item) || item.type !== 'playerSeason' || typeof id !== 'string') {
      throw new IngestError(`data/${index}`, 'must be a playerSeason naming its player');
    }
    return id;
  });
  const recording = recordingOf(deps, document, options, {
    kind: 'playerSeasonList',
    platform: recordingPlatform(deps, document, options.platform),
    id: options.listId,
  });
  return putPlayerRecording(deps, recording, accountIds);
}
