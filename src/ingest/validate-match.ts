/**
 * Validation of the ingest format beyond its schema, and the ids and times a match may leave
 * out: roster and participant ids (v5 UUIDs of the match id and position), the telemetry asset id
 * (a v1 UUID) and its createdAt.
 */
import crypto from 'node:crypto';
import { v1 as uuidV1 } from 'uuid';
import type { Config } from '../config.ts';
import { isExpired } from '../domain/retention.ts';
import { REGION_PLATFORM, type Platform } from '../domain/shards.ts';
import { IngestError } from './ingest-error.ts';
import type { MatchInput } from './match-input.ts';

/** How far a createdAt may lie ahead of the clock: game servers' clocks drift a little. */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;
/** Default delay between a match's end and its telemetry file, as measured on real matches. */
export const TELEMETRY_DELAY_MS = 120_000;
/** Namespace of the v5 UUIDs derived for rosters and participants that come without an id. */
const ID_NAMESPACE = '0b6f0c52-3b1e-4d55-9a53-8f2e7c1d4a90';
const ID_NAMESPACE_BYTES = Buffer.from(ID_NAMESPACE.replaceAll('-', ''), 'hex');

/**
 * The schema check: assertMatchInputSchema (match-input-check.ts), or in a prepare worker a
 * check compiled from its source that throws SchemaCheckFailed for the main thread to redo.
 */
export type SchemaAssertion = (input: unknown) => asserts input is MatchInput;

/** A validated match with its ids and timestamps resolved. */
export interface ValidMatch {
  input: MatchInput;
  createdAt: number;
  assetId: string;
  assetCreatedAt: number;
  rosterIds: string[];
  participants: ValidParticipant[];
  /** The match's platform first, then other platforms its participants play on. */
  platforms: Platform[];
}

export interface ValidParticipant {
  id: string;
  rosterIndex: number;
  platform: Platform;
  input: MatchInput['rosters'][number]['participants'][number];
}

/**
 * Checks the input against the ingest schema and the rules a schema cannot express: the region
 * belongs to the platform, ids and players are unique in the match, createdAt is neither in the
 * future (beyond clock skew) nor already outside the retention window. Throws IngestError naming
 * the first offending field; resolves the ids and times the input leaves out.
 */
export function validateMatchInput(
  input: unknown,
  now: number,
  retention: Pick<Config, 'retentionDays'>,
  assertSchema: SchemaAssertion,
): ValidMatch {
  assertSchema(input);
  const match = input;
  if (match.titleId !== undefined) checkStorable(match.titleId, 'titleId');
  const platform = match.platformShard;
  if (REGION_PLATFORM[match.regionShard] !== platform) {
    throw new IngestError(
      'regionShard',
      `region ${match.regionShard} belongs to platform ${REGION_PLATFORM[match.regionShard]}, not ${platform}`,
    );
  }

  const createdAt = parseTimestamp(match.createdAt, 'createdAt');
  if (createdAt > now + MAX_CLOCK_SKEW_MS) {
    throw new IngestError('createdAt', `${match.createdAt} lies in the future`);
  }
  if (isExpired(createdAt, retention.retentionDays, now)) {
    throw new IngestError(
      'createdAt',
      `${match.createdAt} is older than the ${retention.retentionDays}-day retention window; the match would never be served`,
    );
  }
  const assetCreatedAt =
    match.telemetryCreatedAt === undefined
      ? createdAt + match.duration * 1000 + TELEMETRY_DELAY_MS
      : parseTimestamp(match.telemetryCreatedAt, 'telemetryCreatedAt');

  const rosterIds: string[] = [];
  const participants: ValidParticipant[] = [];
  const platforms = new Set<Platform>([platform]);
  const seenIds = new Map<string, string>();
  const seenPlayers = new Map<string, string>();
  // Loops rather than callbacks made for each match: V8 keeps a closure's optimized code only
  // while a closure made from it is alive, so those were compiled again after every full
  // collection.
  for (let r = 0; r < match.rosters.length; r++) {
    const roster = match.rosters[r]!;
    const rosterId = roster.id ?? derivedId(`${match.id}:roster:${r}`);
    claim(seenIds, rosterId.toLowerCase(), `rosters/${r}/id`, 'id');
    rosterIds.push(rosterId);
    for (let p = 0; p < roster.participants.length; p++) {
      const participant = roster.participants[p]!;
      const path = `rosters/${r}/participants/${p}`;
      checkStorable(participant.name, `${path}/name`);
      const id = participant.id ?? derivedId(`${match.id}:participant:${r}:${p}`);
      claim(seenIds, id.toLowerCase(), `${path}/id`, 'id');
      claim(seenPlayers, participant.playerId, `${path}/playerId`, 'player');
      const participantPlatform = participant.shardId ?? platform;
      platforms.add(participantPlatform);
      participants.push({ id, rosterIndex: r, platform: participantPlatform, input: participant });
    }
  }

  return {
    input: match,
    createdAt,
    assetId: match.telemetryAssetId ?? derivedAssetId(match.id, assetCreatedAt),
    assetCreatedAt,
    rosterIds,
    participants,
    platforms: [...platforms],
  };
}

/** Records where `value` was first seen; refuses it at `field` when it was seen before. */
function claim(seen: Map<string, string>, value: string, field: string, what: string): void {
  const earlier = seen.get(value);
  if (earlier !== undefined) {
    throw new IngestError(
      field,
      `${what} ${value} appears twice in the match (first at ${earlier})`,
    );
  }
  seen.set(value, field);
}

/**
 * Refuses free text no database stores as given: PostgreSQL rejects a NUL in text outright, and
 * an unpaired surrogate has no UTF-8 form (it would be stored as U+FFFD). Every other field is
 * held to a pattern by the schema.
 */
function checkStorable(value: string, field: string): void {
  if (value.includes('\0')) throw new IngestError(field, 'contains a NUL character');
  if (!(value as unknown as { isWellFormed(): boolean }).isWellFormed()) {
    throw new IngestError(field, 'contains an unpaired surrogate (not valid Unicode text)');
  }
}

function parseTimestamp(value: string, field: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new IngestError(field, `${value} is not a valid date-time`);
  return ms;
}

/**
 * The v5 UUID of `name` in ID_NAMESPACE, as uuid's v5 makes it: the SHA-1 of the
 * namespace's bytes and the name's, with version and variant set. One hash call and one string,
 * where uuid's v5 parses the namespace and copies the name byte by byte on every call (2% of an
 * ingest's CPU, most matches' participants coming without ids).
 */
export function derivedId(name: string): string {
  const hex = crypto.hash('sha1', Buffer.concat([ID_NAMESPACE_BYTES, Buffer.from(name)]));
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A time-based (v1) asset id, like the real service's, made deterministic: its time is the
 * asset's createdAt and its node and clock sequence come from a hash of the match id, so the
 * same match always gets the same asset id.
 */
function derivedAssetId(matchId: string, assetCreatedAt: number): string {
  const hash = crypto.createHash('sha256').update(matchId).digest();
  const node = Uint8Array.from(hash.subarray(0, 6));
  node[0]! |= 0x01; // the multicast bit marks a node id that is not a MAC address (RFC 9562)
  return uuidV1({
    msecs: assetCreatedAt,
    nsecs: 0,
    clockseq: ((hash[6]! << 8) | hash[7]!) & 0x3fff,
    node,
    random: Uint8Array.from(hash.subarray(8, 24)),
  });
}
