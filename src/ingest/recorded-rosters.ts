/**
 * The rosters and participants of a recorded match document, in the ingest format. Roster
 * members missing from `included` are skipped, and rosters left empty dropped; participant
 * counters a document's era does not carry (`swimDistance` before mid 2018) count as 0, and the
 * points removed in 2019 (`killPoints`, `winPoints`, `rankPoints` …) are dropped.
 */
import { resolveShard, type Platform } from '../domain/shards.ts';
import type { ParticipantInput, RosterInput } from './match-input.ts';
import { isObject, type Json } from '../domain/json-object.ts';

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

/** The rosters the match lists (or, without a list, every roster included), in its order. */
export function recordedRosters(
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
  // Only counters the document's era does not carry can be absent here (recorded-members.ts).
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
