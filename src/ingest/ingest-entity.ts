/**
 * Everything ingest takes besides matches, behind one entry point that every source (files,
 * HTTP, an upstream) calls for an item that is not a match: clan inputs (`"kind": "clan"`),
 * player statuses (`"kind": "playerStatus"`), and recorded `rankedplayerstats`, `clan`,
 * `weaponMasterySummary`, `survivalMasterySummary` and `playerSeason` documents of the real service.
 */
import { ingestClan, ingestPlayerStatus, type EntityResult } from './ingest-clan.ts';
import type { IngestDeps } from './ingest-match.ts';
import {
  ingestRecordedClan,
  ingestRecordedRanked,
  recordedTypeOf,
  type RecordingOptions,
} from './recorded-documents.ts';
import { ingestRecordedMastery } from './mastery-recorded.ts';
import { ingestRecordedSeasonStats } from './recorded-season-stats.ts';

export type { EntityResult, RecordingOptions };

const INPUT_KINDS = ['clan', 'playerStatus'];

/** True for an item `ingestEntity` takes (matches and recorded matches are not). */
export function isEntityItem(item: unknown): boolean {
  if (recordedTypeOf(item) !== null) return true;
  const kind = (item as { kind?: unknown } | null)?.kind;
  return typeof item === 'object' && INPUT_KINDS.includes(kind as string);
}

/** Ingests a clan, a player status or a recorded document; throws IngestError when refused. */
export async function ingestEntity(
  deps: IngestDeps,
  item: unknown,
  options: RecordingOptions = {},
): Promise<EntityResult> {
  switch (recordedTypeOf(item)) {
    case 'rankedplayerstats':
      return ingestRecordedRanked(deps, item, options);
    case 'clan':
      return ingestRecordedClan(deps, item, options);
    case 'weaponMasterySummary':
    case 'survivalMasterySummary':
      return ingestRecordedMastery(deps, item, options);
    case 'playerSeason':
      return ingestRecordedSeasonStats(deps, item, options);
    default:
      return (item as { kind: string }).kind === 'clan'
        ? ingestClan(deps, item)
        : ingestPlayerStatus(deps, item);
  }
}
