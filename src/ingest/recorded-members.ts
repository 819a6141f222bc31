/**
 * The check that a recorded match document carries every member its era's documents carry
 * (src/domain/recording-eras.ts), run before anything is read from it: a damaged recording is
 * refused with the member named instead of having the gap filled in.
 */
import {
  ASSET_MEMBERS,
  MATCH_RELATIONSHIPS,
  ROSTER_MEMBERS,
  recordingEraAt,
  type RecordingEra,
} from '../domain/recording-eras.ts';
import { IngestError } from './ingest-error.ts';
import { isObject, type Json } from '../domain/json-object.ts';

/** The value at `path` inside `value`, or undefined when any step is missing. */
function memberAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

const isMissing = (value: unknown): boolean => value === undefined || value === null;

/**
 * Throws IngestError naming the first member (as a `/`-separated path into the document, e.g.
 * `included/17/attributes/stats/kills`) that the document's era carries and the document lacks
 * or has as null. `data.attributes.createdAt` decides the era and must itself be a date-time.
 */
export function checkRecordedMembers(document: Json): RecordingEra {
  const data = isObject(document.data) ? document.data : {};
  const createdAt = memberAt(data, ['attributes', 'createdAt']);
  const createdMs = typeof createdAt === 'string' ? Date.parse(createdAt) : NaN;
  if (Number.isNaN(createdMs)) {
    throw new IngestError(
      'data/attributes/createdAt',
      'missing or not a date-time; every recorded match document carries it',
    );
  }
  const era = recordingEraAt(createdMs);
  const refuse = (path: string, what: string): never => {
    const since = era.since === null ? 'every era' : `matches created since ${era.since}`;
    throw new IngestError(path, `missing from ${what}; recorded documents of ${since} carry it`);
  };

  for (const member of era.matchAttributes) {
    if (isMissing(memberAt(data, ['attributes', member]))) {
      refuse(`data/attributes/${member}`, 'the match');
    }
  }
  for (const path of MATCH_RELATIONSHIPS) {
    if (!Array.isArray(memberAt(data, path))) refuse(`data/${path.join('/')}`, 'the match');
  }

  const included = Array.isArray(document.included) ? document.included : [];
  const assetRef = (memberAt(data, ['relationships', 'assets', 'data']) as unknown[])[0];
  const assetId = isObject(assetRef) ? assetRef.id : undefined;
  let assetSeen = false;
  included.forEach((resource, index) => {
    if (!isObject(resource)) return;
    if (resource.type === 'participant') {
      const stats = memberAt(resource, ['attributes', 'stats']);
      for (const member of era.participantStats) {
        if (isMissing(memberAt(stats, [member]))) {
          refuse(
            `included/${index}/attributes/stats/${member}`,
            `participant ${String(resource.id)}`,
          );
        }
      }
    } else if (resource.type === 'roster') {
      for (const path of ROSTER_MEMBERS) {
        if (isMissing(memberAt(resource, path))) {
          refuse(`included/${index}/${path.join('/')}`, `roster ${String(resource.id)}`);
        }
      }
    } else if (resource.type === 'asset' && (assetId === undefined || resource.id === assetId)) {
      assetSeen = true;
      for (const path of ASSET_MEMBERS) {
        if (isMissing(memberAt(resource, path))) {
          refuse(`included/${index}/${path.join('/')}`, `asset ${String(resource.id)}`);
        }
      }
    }
  });
  if (!assetSeen) {
    throw new IngestError(
      'included',
      'no telemetry asset; every recorded match document includes the one its assets relationship names',
    );
  }
  return era;
}
