/**
 * Recorded match documents: a JSON:API match document as the real service served it (any era,
 * 2018 on) becomes a match in the ingest format, keeping its match, roster, participant and
 * asset ids, so archived documents and their telemetry can be served again.
 *
 * What older documents lack is filled in, by these rules:
 * - the region: a platform-region `shardId` (2018 documents), else the `MatchId` of the
 *   telemetry's LogMatchDefinition (`match.bro.official.pc-2018-04.steam.squad-fpp.eu.…` → pc-eu),
 *   else the shard segment of the asset's telemetry URL when it names a region, else the
 *   caller's `region`; with none of them the document is refused;
 * - `mapName` missing or empty (early 2018): the map the telemetry names, else `Erangel_Main`,
 *   the only map that existed on every platform then;
 * - `matchType` (from late 2019): `custom` for custom matches, else `official`;
 *   `isCustomMatch` (from mid 2018): false; `seasonState` (from late 2018): the telemetry's,
 *   else `closed`;
 * - participant stats a document lacks (`swimDistance` before mid 2018) count as 0, and the
 *   keys removed in 2019 (`killPoints`, `winPoints`, `rankPoints` …) are dropped;
 * - roster members missing from `included` are skipped, and rosters left empty dropped.
 */
import { gunzipSync } from 'node:zlib';
import { VENDOR_SHARD_ALIASES, resolveShard, type Platform } from '../domain/shards.ts';
import { IngestError, ingestMatch, type IngestDeps, type IngestResult } from './ingest-match.ts';
import { recordedMatchRegion } from './recorded-region.ts';
import type {
  MatchInput,
  ParticipantInput,
  RosterInput,
  TelemetryEventInput,
} from './match-input.ts';

/** The map every platform had in early 2018, for documents of that time that name none. */
export const FALLBACK_MAP_NAME = 'Erangel_Main';
/** seasonState of documents from before the attribute existed: their seasons are long over. */
export const FALLBACK_SEASON_STATE = 'closed';

const STAT_NUMBERS = [
  'DBNOs',
  'assists',
  'boosts',
  'damageDealt',
  'headshotKills',
  'heals',
  'killPlace',
  'killStreaks',
  'kills',
  'longestKill',
  'revives',
  'rideDistance',
  'roadKills',
  'swimDistance',
  'teamKills',
  'timeSurvived',
  'vehicleDestroys',
  'walkDistance',
  'weaponsAcquired',
  'winPlace',
] as const;

export interface RecordedMatchOptions {
  /** The match's telemetry events, when recorded too. */
  telemetry?: unknown[];
  /** Platform-region shard to use when neither the document nor its telemetry names one. */
  region?: string;
  /** Operator shard aliases, on top of the vendor names documents use (steam, kakao, xbox-na …). */
  aliases?: Readonly<Record<string, string>>;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

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
  const data = document.data as Json;
  const attributes = isObject(data.attributes) ? data.attributes : {};
  const included = Array.isArray(document.included) ? document.included.filter(isObject) : [];
  const aliases = { ...VENDOR_SHARD_ALIASES, ...options.aliases };
  const telemetry = options.telemetry;

  const shard = resolveShard(String(attributes.shardId ?? ''), aliases);
  if (shard === null) {
    throw new IngestError(
      'data/attributes/shardId',
      `unknown shard ${JSON.stringify(attributes.shardId)}`,
    );
  }
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
    rosters: rostersOf(data, included, platform, aliases),
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
  if (telemetry) input.telemetry = telemetry as TelemetryEventInput[];
  return input;
}

/**
 * Ingests a recorded match document; `telemetry` is its telemetry file as recorded (gzip or
 * plain JSON).
 */
export async function ingestRecordedMatch(
  deps: IngestDeps,
  document: unknown,
  options: { telemetry?: Buffer; region?: string } = {},
): Promise<IngestResult> {
  const telemetry = options.telemetry === undefined ? undefined : parseTelemetry(options.telemetry);
  const input = matchInputFromDocument(document, {
    ...(telemetry ? { telemetry } : {}),
    ...(options.region ? { region: options.region } : {}),
    aliases: deps.config.shardAliases,
  });
  return ingestMatch(deps, input);
}

/** A telemetry file's events; gzip is recognised by its magic bytes. */
export function parseTelemetry(bytes: Buffer): unknown[] {
  let events: unknown;
  try {
    const text =
      bytes[0] === 0x1f && bytes[1] === 0x8b
        ? gunzipSync(bytes).toString('utf8')
        : bytes.toString('utf8');
    events = JSON.parse(text);
  } catch (error) {
    throw new IngestError('telemetry', `not a readable JSON file (${(error as Error).message})`);
  }
  if (!Array.isArray(events)) throw new IngestError('telemetry', 'expected a JSON array of events');
  return events;
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

function rostersOf(
  data: Json,
  included: Json[],
  platform: Platform,
  aliases: Readonly<Record<string, string>>,
): RosterInput[] {
  const participants = new Map<unknown, Json>();
  const rosters = new Map<unknown, Json>();
  for (const resource of included) {
    if (resource.type === 'participant') participants.set(resource.id, resource);
    if (resource.type === 'roster') rosters.set(resource.id, resource);
  }
  const relationships = isObject(data.relationships) ? data.relationships : {};
  const listed =
    isObject(relationships.rosters) && Array.isArray(relationships.rosters.data)
      ? relationships.rosters.data.filter(isObject).map((ref) => ref.id)
      : [...rosters.keys()];

  const result: RosterInput[] = [];
  for (const rosterId of listed) {
    const roster = rosters.get(rosterId);
    if (roster === undefined) continue;
    const attributes = isObject(roster.attributes) ? roster.attributes : {};
    const stats = isObject(attributes.stats) ? attributes.stats : {};
    const rel = isObject(roster.relationships) ? roster.relationships : {};
    const refs =
      isObject(rel.participants) && Array.isArray(rel.participants.data)
        ? rel.participants.data
        : [];
    const members = refs
      .filter(isObject)
      .map((ref) => participants.get(ref.id))
      .filter((p): p is Json => p !== undefined)
      .map((p) => participantOf(p, platform, aliases));
    if (members.length === 0) continue;
    result.push({
      id: roster.id as string,
      teamId: stats.teamId as number,
      rank: stats.rank as number,
      won: attributes.won === 'true' || attributes.won === true,
      participants: members,
    });
  }
  return result;
}

function participantOf(
  resource: Json,
  platform: Platform,
  aliases: Readonly<Record<string, string>>,
): ParticipantInput {
  const attributes = isObject(resource.attributes) ? resource.attributes : {};
  const recorded = isObject(attributes.stats) ? attributes.stats : {};
  const stats: Record<string, unknown> = {};
  for (const key of STAT_NUMBERS) stats[key] = recorded[key] ?? 0;
  stats.deathType = recorded.deathType;
  const participant: ParticipantInput = {
    id: resource.id as string,
    playerId: recorded.playerId as string,
    name: recorded.name as string,
    stats: stats as ParticipantInput['stats'],
  };
  const own = resolveShard(String(attributes.shardId ?? ''), aliases)?.platform;
  if (own !== undefined && own !== platform) participant.shardId = own;
  return participant;
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
