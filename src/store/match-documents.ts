/**
 * Match documents as bytes: the rendered variants (shard spelling and base URLs) and, for a
 * match that entered as a recorded document, that document exactly as recorded. Rendering is
 * ingest's; the store only keeps and finds bytes.
 *
 * A variant row is keyed by the telemetry state it was rendered in (`<variant key>` with the
 * file stored, `<variant key>|pending` without), and a read only takes the row of the match's
 * current state: a render that races with the arrival of the telemetry can never be served
 * afterwards, whatever order the writes land in.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { MatchRecord, RosterRecord } from '../presenters/match-document.ts';
import type { MatchDocumentsTable } from './schema.ts';
import type { Db } from './store.ts';

const gunzip = promisify(zlib.gunzip);

/** The `variant` of the row that keeps a recorded document as it was ingested. */
export const RECORDED_DOCUMENT = 'recorded';

/** The row variant of a document rendered in `variantKey` with or without the telemetry file. */
export function documentRowVariant(variantKey: string, hasTelemetry: boolean): string {
  return hasTelemetry ? variantKey : `${variantKey}|pending`;
}

/** A rendered match document as bytes, with the match facts a route needs to serve it. */
export interface StoredMatchDocument {
  /** Strong ETag of the identity bytes, quoted. */
  etag: string;
  /** The identity bytes: the gunzip of `bodyGzip`, made on first read (the store keeps gzip only). */
  readonly body: Buffer;
  bodyGzip: Buffer;
  /** The match's createdAt, epoch ms (for the retention window). */
  createdAt: number;
  /** The match's canonical platform. */
  platform: string;
  /** False until the telemetry file is stored: the document will change once more. */
  hasTelemetry: boolean;
}

/**
 * The stored rendering of a variant in the match's current telemetry state (one indexed read),
 * or null when none is stored yet (or the match is not).
 */
export async function findMatchDocument(
  db: Db,
  matchId: string,
  variantKey: string,
): Promise<StoredMatchDocument | null> {
  const row = await db
    .selectFrom('match_documents as d')
    .innerJoin('matches as m', 'm.id', 'd.match_id')
    .select(['d.etag', 'd.body_gzip', 'm.created_at', 'm.platform', 'm.telemetry_key'])
    .where('d.match_id', '=', matchId)
    .where((eb) =>
      eb(
        'd.variant',
        '=',
        eb
          .case()
          .when('m.telemetry_key', 'is', null)
          .then(documentRowVariant(variantKey, false))
          .else(documentRowVariant(variantKey, true))
          .end(),
      ),
    )
    .executeTakeFirst();
  if (row === undefined) return null;
  return storedMatchDocument(
    {
      etag: row.etag,
      createdAt: row.created_at,
      platform: row.platform,
      hasTelemetry: row.telemetry_key !== null,
    },
    Buffer.from(row.body_gzip),
  );
}

/**
 * A stored document from its gzip bytes; `body`, when the identity bytes are at hand already,
 * saves the gunzip.
 */
export function storedMatchDocument(
  facts: Omit<StoredMatchDocument, 'body' | 'bodyGzip'>,
  bodyGzip: Buffer,
  body?: Buffer,
): StoredMatchDocument {
  let identity = body;
  return {
    ...facts,
    bodyGzip,
    get body() {
      identity ??= zlib.gunzipSync(bodyGzip);
      return identity;
    },
  };
}

/** Stores a rendered (or recorded) document; a row already stored under its key stays. */
export async function saveMatchDocument(db: Db, row: MatchDocumentsTable): Promise<void> {
  await db
    .insertInto('match_documents')
    .values(row)
    .onConflict((oc) => oc.columns(['match_id', 'variant']).doNothing())
    .execute();
}

/** Deletes every rendered variant of a match (the recorded document stays). */
export async function deleteRenderedDocuments(db: Db, matchId: string): Promise<void> {
  await db
    .deleteFrom('match_documents')
    .where('match_id', '=', matchId)
    .where('variant', '<>', RECORDED_DOCUMENT)
    .execute();
}

/** The match's document exactly as recorded, or null when it did not enter as one. */
export async function findRecordedDocument(db: Db, matchId: string): Promise<Buffer | null> {
  const row = await db
    .selectFrom('match_documents')
    .select('body_gzip')
    .where('match_id', '=', matchId)
    .where('variant', '=', RECORDED_DOCUMENT)
    .executeTakeFirst();
  return row === undefined ? null : gunzip(row.body_gzip);
}

/**
 * The `stats` of a participant row that leaves them to the match's documents. Ingest stored
 * rows like that from 2026-12-02 until it stopped storing rows for the matches whose documents
 * it renders (see findMatchMembers); rows stored then still read this way until retention
 * purges them.
 */
export const STATS_IN_DOCUMENT = '';

/** A participant of a stored match as its readers need it. */
export interface StoredParticipant {
  id: string;
  /** The participant's own platform (canonical). */
  platform: string;
  rosterId: string;
  playerId: string;
  /** The stats object as the documents render it (renderParticipantStats). */
  statsJson: string;
}

/** A stored match's rosters and participants, each in document order. */
export interface StoredMembers {
  rosters: RosterRecord[];
  participants: StoredParticipant[];
}

/** The parts of a rendered match document that name its members. */
interface RenderedMembers {
  included?: Array<{
    type: string;
    id: string;
    attributes?: {
      shardId?: string;
      won?: string;
      stats?: { rank?: number; teamId?: number; playerId?: string } | null;
    };
    relationships?: { participants?: { data?: Array<{ id: string }> } };
  }>;
}

/**
 * The rosters and participants of a stored match. A match whose documents ingest rendered keeps
 * them in those documents only (as rows they took 29.5 KB of the 124 KB a match took on SQLite;
 * 93.7 KB without them): they are read from the rendering in the match's
 * own shard spelling, which ingest always stores and which names every participant's canonical
 * platform. A match that entered as a recorded document keeps rows, since its documents are its
 * recorded bytes and may say otherwise.
 */
export async function findMatchMembers(
  db: Db,
  matchId: string,
  platform: string,
): Promise<StoredMembers> {
  const [rosters, participants] = await Promise.all([
    db
      .selectFrom('rosters')
      .select(['id', 'team_id', 'rank', 'won'])
      .where('match_id', '=', matchId)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('participants')
      .select(['id', 'roster_id', 'player_id', 'shard', 'stats'])
      .where('match_id', '=', matchId)
      .orderBy('position')
      .execute(),
  ]);
  if (rosters.length === 0 && participants.length === 0) {
    return membersOfDocument(await ownSpellingDocument(db, matchId, platform));
  }
  const members = new Map<string, string[]>();
  for (const p of participants) {
    const list = members.get(p.roster_id);
    if (list) list.push(p.id);
    else members.set(p.roster_id, [p.id]);
  }
  const leftToDocument = participants.some((p) => p.stats === STATS_IN_DOCUMENT);
  const rendered = leftToDocument
    ? new Map(
        membersOfDocument(await ownSpellingDocument(db, matchId, platform)).participants.map(
          (p) => [p.id, p.statsJson],
        ),
      )
    : null;
  return {
    rosters: rosters.map((r) => ({
      id: r.id,
      teamId: r.team_id,
      rank: r.rank,
      won: r.won === 1,
      participantIds: members.get(r.id) ?? [],
    })),
    participants: participants.map((p) => {
      const statsJson = p.stats === STATS_IN_DOCUMENT ? rendered?.get(p.id) : p.stats;
      if (statsJson === undefined) {
        throw new Error(`match ${matchId}: participant ${p.id} is not in its document`);
      }
      return {
        id: p.id,
        platform: p.shard,
        rosterId: p.roster_id,
        playerId: p.player_id,
        statsJson,
      };
    }),
  };
}

/**
 * The text of the match's rendering in its own shard's spelling (variant `<platform>|…`), in
 * which spellShard leaves every platform canonical.
 */
async function ownSpellingDocument(db: Db, matchId: string, platform: string): Promise<string> {
  // The variants' names first: only the one rendering read is fetched whole.
  const variants = await db
    .selectFrom('match_documents')
    .select('variant')
    .where('match_id', '=', matchId)
    .where('variant', '<>', RECORDED_DOCUMENT)
    .execute();
  const own = variants.find((row) => row.variant.startsWith(`${platform}|`));
  const row =
    own &&
    (await db
      .selectFrom('match_documents')
      .select('body_gzip')
      .where('match_id', '=', matchId)
      .where('variant', '=', own.variant)
      .executeTakeFirst());
  if (!row) {
    throw new Error(
      `match ${matchId}: its members are kept in its documents, and none in its own shard's spelling is stored`,
    );
  }
  return (await gunzip(row.body_gzip)).toString('utf8');
}

/**
 * The members a rendered document names, in its order. JSON.stringify of a participant's
 * parsed stats gives back the exact text rendered, which JSON.stringify wrote value by value in
 * a fixed key order.
 */
function membersOfDocument(text: string): StoredMembers {
  const document = JSON.parse(text) as RenderedMembers;
  const rosters: RosterRecord[] = [];
  const rosterOf = new Map<string, string>();
  const participants: StoredParticipant[] = [];
  for (const item of document.included ?? []) {
    if (item.type !== 'roster') continue;
    const participantIds = (item.relationships?.participants?.data ?? []).map((p) => p.id);
    for (const id of participantIds) rosterOf.set(id, item.id);
    rosters.push({
      id: item.id,
      teamId: item.attributes?.stats?.teamId ?? 0,
      rank: item.attributes?.stats?.rank ?? 0,
      won: item.attributes?.won === 'true',
      participantIds,
    });
  }
  for (const item of document.included ?? []) {
    if (item.type !== 'participant') continue;
    const stats = item.attributes?.stats;
    participants.push({
      id: item.id,
      platform: item.attributes?.shardId ?? '',
      rosterId: rosterOf.get(item.id) ?? '',
      playerId: stats?.playerId ?? '',
      statsJson: JSON.stringify(stats),
    });
  }
  return { rosters, participants };
}

/**
 * A stored match with its rosters and participants in document order, or null when absent (or
 * on a platform `wanted` refuses, which is checked before the members are read). Its rendered
 * documents must still be stored when its members are kept in them: read it before deleting
 * them.
 */
export async function findMatchRecord(
  db: Db,
  matchId: string,
  wanted: (platform: string) => boolean = () => true,
): Promise<MatchRecord | null> {
  const match = await db
    .selectFrom('matches')
    .selectAll()
    .where('id', '=', matchId)
    .executeTakeFirst();
  if (match === undefined || !wanted(match.platform)) return null;
  const members = await findMatchMembers(db, matchId, match.platform);
  return {
    id: match.id,
    platform: match.platform,
    createdAt: match.created_at,
    duration: match.duration,
    gameMode: match.game_mode,
    mapName: match.map_name,
    matchType: match.match_type,
    isCustomMatch: match.is_custom === 1,
    seasonState: match.season_state,
    titleId: match.title_id,
    assetId: match.asset_id,
    assetCreatedAt: match.asset_created_at,
    hasTelemetry: match.telemetry_key !== null,
    rosters: members.rosters,
    participants: members.participants.map((p) => ({
      id: p.id,
      platform: p.platform,
      statsJson: p.statsJson,
    })),
  };
}
