/**
 * Recorded weapon and survival mastery documents of the real service (`weaponMasterySummary`,
 * `survivalMasterySummary`), kept as the bytes given in the recorded documents store and served
 * as recorded — only the top-level `links.self` rewritten — while they are newer than what this
 * service derived (recording-precedence.ts). A recording must name:
 * - the player: `data.id`, an account id;
 * - its content: `data.attributes.weaponSummaries` or `data.attributes.stats`, an object;
 * - its platform: the `platform` option, else the shard of its `links.self`, else (weapon
 *   mastery only, whose documents carry it) `data.attributes.platform`;
 * - when it was recorded: the `recordedAt` option, else the ingest time.
 */
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

const CONTENT = {
  weaponMasterySummary: 'weaponSummaries',
  survivalMasterySummary: 'stats',
} as const;

/** Stores a recorded weapon or survival mastery document, keyed by platform and account id. */
export async function ingestRecordedMastery(
  deps: IngestDeps,
  document: unknown,
  options: RecordingOptions,
): Promise<EntityResult> {
  const data = (document as { data: Json }).data;
  const kind = data.type as keyof typeof CONTENT;
  if (typeof data.id !== 'string' || !new RegExp(ACCOUNT_ID_PATTERN).test(data.id)) {
    throw new IngestError('data/id', 'must be the account id of the player, account.<32 hex>');
  }
  const attributes = isObject(data.attributes) ? data.attributes : {};
  if (!isObject(attributes[CONTENT[kind]])) {
    throw new IngestError(`data/attributes/${CONTENT[kind]}`, 'must be an object');
  }
  const named = typeof attributes.platform === 'string' ? attributes.platform : undefined;
  const recording = recordingOf(deps, document, options, {
    kind,
    platform: recordingPlatform(deps, document, options.platform, named),
    id: data.id,
  });
  return putPlayerRecording(deps, recording, [data.id]);
}
