/**
 * Recorded match documents: a JSON:API match document as the real service served it (any era,
 * 2018 on) becomes a match in the ingest format, keeping its match, roster, participant and
 * asset ids, so archived documents and their telemetry can be served again. The document itself
 * is stored as recorded and served byte for byte, links aside (recorded-match-document.ts).
 *
 * A document must carry every member its era's documents carry (recorded-members.ts); what
 * older eras lack is filled in, by these rules:
 * - the region: a platform-region `shardId` (2018 documents), else the `MatchId` of the
 *   telemetry's LogMatchDefinition (`match.bro.official.pc-2018-04.steam.squad-fpp.eu.…` → pc-eu),
 *   else the shard segment of the asset's telemetry URL when it names a region, else the
 *   caller's `region`; with none of them the document is refused;
 * - `mapName` missing or empty (early 2018): the map the telemetry names, else `Erangel_Main`,
 *   the only map that existed on every platform then;
 * - `matchType` (from late 2019): `custom` for custom matches, else `official`;
 *   `isCustomMatch` (from mid 2018): false; `seasonState` (from late 2018): the telemetry's,
 *   else `closed`;
 * - rosters and participants as recorded-rosters.ts describes.
 */
import {
  VENDOR_SHARD_ALIASES,
  resolveShard,
  servesPlatform,
  type ResolvedShard,
} from '../domain/shards.ts';
import { IngestError } from './ingest-error.ts';
import { ingestMatch, type IngestDeps, type IngestResult } from './ingest-match.ts';
import type { MatchInput } from './match-input.ts';
import { checkRecordedMembers } from './recorded-members.ts';
import { recordedMatchRegion } from './recorded-region.ts';
import { recordedRosters } from './recorded-rosters.ts';
import { readTelemetryFile } from './telemetry-file.ts';
import { isObject, type Json } from '../domain/json-object.ts';

/** The map every platform had in early 2018, for documents of that time that name none. */
export const FALLBACK_MAP_NAME = 'Erangel_Main';
/** seasonState of documents from before the attribute existed: their seasons are long over. */
export const FALLBACK_SEASON_STATE = 'closed';

export interface RecordedMatchOptions {
  /** The match's telemetry events, when recorded too (they may name its region and map). */
  telemetry?: unknown[];
  /** Platform-region shard to use when neither the document nor its telemetry names one. */
  region?: string;
  /** Operator shard aliases, on top of the vendor names documents use (steam, kakao, xbox-na …). */
  aliases?: Readonly<Record<string, string>>;
}

/** True for a JSON:API match document (`data.type` is `match`). */
export function isRecordedMatchDocument(value: unknown): value is Json {
  return isObject(value) && isObject(value.data) && value.data.type === 'match';
}

/** Converts a recorded JSON:API match document into the ingest format (see the file comment). */
export function matchInputFromDocument(
  document: unknown,
  options: RecordedMatchOptions = {},
): MatchInput {
  if (!isRecordedMatchDocument(document)) {
    throw new IngestError('data/type', 'not a JSON:API match document');
  }
  checkRecordedMembers(document);
  const data = document.data as Json;
  const attributes = isObject(data.attributes) ? data.attributes : {};
  const included = Array.isArray(document.included) ? document.included.filter(isObject) : [];
  const aliases = { ...VENDOR_SHARD_ALIASES, ...options.aliases };
  const telemetry = options.telemetry;

  const named = resolveShard(String(attributes.shardId ?? ''), aliases, { combined: true });
  if (named === null) {
    throw new IngestError(
      'data/attributes/shardId',
      `unknown shard ${JSON.stringify(attributes.shardId)}`,
    );
  }
  const shard = named.isCombined ? combinedMatchShard(named, included, aliases) : named;
  const platform = shard.platform;
  const asset = findAsset(data, included);
  const assetUrl = asset && isObject(asset.attributes) ? asset.attributes.URL : undefined;
  const region = recordedMatchRegion(shard, {
    telemetry,
    assetUrl: typeof assetUrl === 'string' ? assetUrl : undefined,
    region: options.region,
    aliases,
  });

  const isCustomMatch = attributes.isCustomMatch === true;
  const definition = telemetry?.find((e) => isObject(e) && e._T === 'LogMatchDefinition') as
    Json | undefined;
  const mapName =
    typeof attributes.mapName === 'string' && attributes.mapName !== ''
      ? attributes.mapName
      : (mapFromTelemetry(telemetry) ?? FALLBACK_MAP_NAME);
  const assetAttributes = asset && isObject(asset.attributes) ? asset.attributes : {};

  const input: MatchInput = {
    id: data.id as string,
    platformShard: platform,
    regionShard: region as MatchInput['regionShard'],
    createdAt: attributes.createdAt as string,
    duration: attributes.duration as number,
    gameMode: attributes.gameMode as string,
    mapName,
    matchType: (attributes.matchType ??
      (isCustomMatch ? 'custom' : 'official')) as MatchInput['matchType'],
    isCustomMatch,
    seasonState: (attributes.seasonState ??
      (typeof definition?.SeasonState === 'string'
        ? definition.SeasonState
        : FALLBACK_SEASON_STATE)) as MatchInput['seasonState'],
    rosters: recordedRosters(data, included, platform, aliases),
  };
  if (typeof attributes.titleId === 'string' && attributes.titleId !== '') {
    input.titleId = attributes.titleId;
  }
  if (asset) {
    input.telemetryAssetId = asset.id as string;
    if (typeof assetAttributes.createdAt === 'string') {
      input.telemetryCreatedAt = assetAttributes.createdAt;
    }
  }
  return input;
}

/** What comes with a recorded document besides the document. */
export interface RecordedIngestOptions {
  /** Its telemetry file as recorded (gzip or JSON bytes), stored byte for byte. */
  telemetry?: Buffer;
  /** Platform-region shard for documents that name none (see the file comment). */
  region?: string;
  /**
   * The document's bytes exactly as recorded (JSON text), kept and served as such; without
   * them, the JSON of `document` is what was given.
   */
  raw?: Buffer;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Ingests a recorded match document through ingestMatch, keeping the document and its
 * telemetry file byte for byte. A match stored without telemetry gets the file now ('attached').
 */
export async function ingestRecordedMatch(
  deps: IngestDeps,
  document: unknown,
  options: RecordedIngestOptions = {},
): Promise<IngestResult> {
  const file =
    options.telemetry === undefined
      ? undefined
      : await readTelemetryFile(options.telemetry, deps.config.ingestMaxBytes);
  const input = matchInputFromDocument(document, {
    ...(file ? { telemetry: file.events } : {}),
    ...(options.region ? { region: options.region } : {}),
    aliases: deps.config.shardAliases,
  });
  const recorded = options.raw ?? Buffer.from(JSON.stringify(document));
  try {
    UTF8.decode(recorded);
  } catch {
    throw new IngestError('', 'the document is not valid UTF-8 text');
  }
  return ingestMatch(deps, input, { ...(file ? { telemetry: file } : {}), recorded });
}

function findAsset(data: Json, included: Json[]): Json | undefined {
  const relationships = isObject(data.relationships) ? data.relationships : {};
  const assets =
    isObject(relationships.assets) && Array.isArray(relationships.assets.data)
      ? relationships.assets.data
      : [];
  const id = assets.find(isObject)?.id;
  return included.find((r) => r.type === 'asset' && (id === undefined || r.id === id));
}

/** The map a telemetry file names (`common.mapName` or LogMatchStart's `mapName`), if any. */
function mapFromTelemetry(telemetry: unknown[] | undefined): string | null {
  if (telemetry === undefined) return null;
  for (const event of telemetry) {
    if (!isObject(event)) continue;
    const fromCommon = isObject(event.common) ? event.common.mapName : undefined;
    const name = typeof fromCommon === 'string' && fromCommon !== '' ? fromCommon : event.mapName;
    if (typeof name === 'string' && name !== '') return name;
  }
  return null;
}

/**
 * The platform shard of a match recorded on a combined shard (`console`): the platform most of
 * its participants name as theirs (a console match's participants say `psn` or `xbox`), among
 * the shard's platforms. Throws when none names one, as for an unknown shard.
 */
function combinedMatchShard(
  named: ResolvedShard,
  included: readonly Json[],
  aliases: Readonly<Record<string, string>>,
): ResolvedShard {
  const counts = new Map<string, number>();
  for (const resource of included) {
    if (resource.type !== 'participant' || !isObject(resource.attributes)) continue;
    const own = resolveShard(String(resource.attributes.shardId ?? ''), aliases)?.platform;
    if (own !== undefined && servesPlatform(named, own)) {
      counts.set(own, (counts.get(own) ?? 0) + 1);
    }
  }
  const [platform] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  const shard = platform === undefined ? null : resolveShard(platform, {});
  if (shard === null) {
    throw new IngestError(
      'data/attributes/shardId',
      `the shard ${JSON.stringify(named.spelling)} spans ${named.platforms.join(' and ')}, and no participant names one of them as its own`,
    );
  }
  return shard;
}
