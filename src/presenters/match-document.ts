/**
 * The JSON:API match document (REFERENCE §3.9): the match, its rosters, participants and the one
 * telemetry asset. A document changes at most once — when the telemetry of a match stored
 * without it arrives — so it is rendered once per variant and served as bytes; rendering
 * concatenates pre-escaped pieces instead of building and stringifying an object tree, which is
 * several times faster for a 100-participant match.
 */
import type { ParticipantCounters } from '../domain/stats.ts';
import crypto from 'node:crypto';
import { spellShard, type ResolvedShard } from '../domain/shards.ts';
import { isoSeconds } from '../domain/time.ts';
import { telemetryUrl } from './telemetry-url.ts';

/** A stored match as the document needs it. Timestamps are epoch ms; platforms canonical. */
export interface MatchRecord {
  id: string;
  platform: string;
  createdAt: number;
  duration: number;
  gameMode: string;
  mapName: string;
  matchType: string;
  isCustomMatch: boolean;
  seasonState: string;
  titleId: string;
  assetId: string;
  assetCreatedAt: number;
  /**
   * Whether the telemetry file is stored. Without it the document names no asset: a client is
   * never handed a telemetry URL that answers 404 while the file is still on its way.
   */
  hasTelemetry: boolean;
  /** In the order the match lists them. */
  rosters: RosterRecord[];
  /** In document order. */
  participants: ParticipantRecord[];
}

export interface RosterRecord {
  id: string;
  teamId: number;
  rank: number;
  won: boolean;
  participantIds: string[];
}

export interface ParticipantRecord {
  id: string;
  /** The participant's own platform (canonical), which cross-play may make differ from the match's. */
  platform: string;
  /** The participant stats object, already rendered (see renderParticipantStats). */
  statsJson: string;
}

/**
 * What a rendered document depends on besides the match: the shard as the request spelled it
 * (responses echo the client's vocabulary), the alias table that spells other shards, and the
 * two base URLs of links and telemetry.
 */
export interface MatchDocumentVariant {
  shard: ResolvedShard;
  shardAliases: Readonly<Record<string, string>>;
  publicBaseUrl: string;
  telemetryBaseUrl: string;
}

/** The variant of a match document a request made with the canonical platform name gets. */
export function canonicalMatchDocumentVariant(
  platform: string,
  config: {
    shardAliases: Readonly<Record<string, string>>;
    publicBaseUrl: string;
    telemetryBaseUrl: string;
  },
): MatchDocumentVariant {
  return {
    shard: {
      spelling: platform,
      canonical: platform,
      platform: platform as ResolvedShard['platform'],
      platforms: [platform as ResolvedShard['platform']],
      isPlatform: true,
      isRegion: false,
      isCombined: false,
    },
    shardAliases: config.shardAliases,
    publicBaseUrl: config.publicBaseUrl,
    telemetryBaseUrl: config.telemetryBaseUrl,
  };
}

/**
 * Bumped whenever rendering changes what a stored document says, so documents rendered before
 * are rendered anew on their next request. 2: telemetry URLs name the canonical platform.
 */
const RENDERING_REVISION = 2;

/**
 * A short stable key naming a variant in the document store: `<request spelling>|<12 chars of
 * a SHA-1 over the rendering revision, the base URLs and the alias table>`, so a changed
 * configuration or rendering renders anew.
 */
export function matchDocumentVariantKey(variant: MatchDocumentVariant): string {
  const aliases = Object.entries(variant.shardAliases)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([alias, target]) => `${alias}=${target}`)
    .join(',');
  const digest = crypto
    .createHash('sha1')
    .update(
      `${RENDERING_REVISION}\n${variant.publicBaseUrl}\n${variant.telemetryBaseUrl}\n${aliases}`,
    )
    .digest('base64url')
    .slice(0, 12);
  return `${variant.shard.spelling}|${digest}`;
}

/** The participant stats a document shows (REFERENCE §4.2), less `name` and `playerId`. */
export type ParticipantStatsValues = ParticipantCounters;

const q = JSON.stringify;

/**
 * The 23-key participant stats object as JSON, keys in byte-wise order (`DBNOs` first, as the
 * real service sends them) and numbers exactly as given.
 */
export function renderParticipantStats(
  name: string,
  playerId: string,
  s: ParticipantStatsValues,
): string {
  return (
    `{"DBNOs":${q(s.DBNOs)},"assists":${q(s.assists)},"boosts":${q(s.boosts)},` +
    `"damageDealt":${q(s.damageDealt)},"deathType":${q(s.deathType)},` +
    `"headshotKills":${q(s.headshotKills)},"heals":${q(s.heals)},"killPlace":${q(s.killPlace)},` +
    `"killStreaks":${q(s.killStreaks)},"kills":${q(s.kills)},"longestKill":${q(s.longestKill)},` +
    `"name":${q(name)},"playerId":${q(playerId)},"revives":${q(s.revives)},` +
    `"rideDistance":${q(s.rideDistance)},"roadKills":${q(s.roadKills)},` +
    `"swimDistance":${q(s.swimDistance)},"teamKills":${q(s.teamKills)},` +
    `"timeSurvived":${q(s.timeSurvived)},"vehicleDestroys":${q(s.vehicleDestroys)},` +
    `"walkDistance":${q(s.walkDistance)},"weaponsAcquired":${q(s.weaponsAcquired)},` +
    `"winPlace":${q(s.winPlace)}}`
  );
}

/** Renders the match document of one variant as a JSON string. */
export function renderMatchDocument(match: MatchRecord, variant: MatchDocumentVariant): string {
  // No callbacks made per match here: V8 keeps a closure's optimized code only while a closure
  // made from it is alive, so those were compiled again after every full collection.
  const spellings = new Map<string, string>();
  // On a combined shard (`console`) the match names that shard, its players their own platforms.
  const matchShard = q(
    variant.shard.isCombined
      ? variant.shard.spelling
      : spellOnce(spellings, match.platform, variant),
  );
  const self = q(matchUrl(variant, match.id));
  const assetId = q(match.assetId);

  const included: string[] = [];
  for (const p of match.participants) {
    included.push(
      `{"type":"participant","id":${q(p.id)},"attributes":{"actor":"","shardId":${q(spellOnce(spellings, p.platform, variant))},"stats":${p.statsJson}}}`,
    );
  }
  const rosterRefs: string[] = [];
  for (const r of match.rosters) {
    const id = q(r.id);
    rosterRefs.push(`{"type":"roster","id":${id}}`);
    let members = '';
    for (const p of r.participantIds) {
      members += `${members === '' ? '' : ','}{"type":"participant","id":${q(p)}}`;
    }
    included.push(
      `{"type":"roster","id":${id},"attributes":{"won":"${r.won ? 'true' : 'false'}","shardId":${matchShard},` +
        `"stats":{"rank":${q(r.rank)},"teamId":${q(r.teamId)}}},` +
        `"relationships":{"team":{"data":null},"participants":{"data":[${members}]}}}`,
    );
  }
  if (match.hasTelemetry) {
    const url = telemetryUrl(
      variant.telemetryBaseUrl,
      match.platform,
      match.assetCreatedAt,
      match.assetId,
    );
    included.push(
      `{"type":"asset","id":${assetId},"attributes":{"name":"telemetry","description":"",` +
        `"createdAt":"${isoSeconds(match.assetCreatedAt)}","URL":${q(url)}}}`,
    );
  }

  return (
    `{"data":{"type":"match","id":${q(match.id)},"attributes":{` +
    `"createdAt":"${isoSeconds(match.createdAt)}","duration":${q(match.duration)},` +
    `"gameMode":${q(match.gameMode)},"mapName":${q(match.mapName)},"matchType":${q(match.matchType)},` +
    `"isCustomMatch":${match.isCustomMatch ? 'true' : 'false'},"seasonState":${q(match.seasonState)},` +
    `"shardId":${matchShard},"titleId":${q(match.titleId)},"stats":null,"tags":null},` +
    `"relationships":{"rosters":{"data":[${rosterRefs.join(',')}]},` +
    `"assets":{"data":[${match.hasTelemetry ? `{"type":"asset","id":${assetId}}` : ''}]}},` +
    `"links":{"self":${self},"schema":""}},` +
    `"included":[${included.join(',')}],"links":{"self":${self}},"meta":{}}`
  );
}

/** `canonical` as the variant spells it, spelled once per rendering. */
function spellOnce(
  spellings: Map<string, string>,
  canonical: string,
  variant: MatchDocumentVariant,
): string {
  let spelled = spellings.get(canonical);
  if (spelled === undefined) {
    spelled = spellShard(canonical, variant.shard, variant.shardAliases);
    spellings.set(canonical, spelled);
  }
  return spelled;
}

/** The match's URL on this service, spelled as the variant's request spelled its shard. */
export function matchUrl(variant: MatchDocumentVariant, matchId: string): string {
  return `${variant.publicBaseUrl}/shards/${variant.shard.spelling}/matches/${matchId}`;
}

/** The strong ETag of a rendered body: its SHA-1, base64url, quoted. */
export function documentEtag(body: Buffer): string {
  return `"${crypto.createHash('sha1').update(body).digest('base64url')}"`;
}
