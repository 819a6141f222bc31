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
import type { MatchRecord } from '../presenters/match-document.ts';
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
 * A participant row's `stats` when the stats are not kept in the row: ingest leaves it empty for
 * a match whose documents it renders itself, since every rendered document holds each
 * participant's stats exactly as `renderParticipantStats` wrote them (that second copy was
 * about a fifth of a stored match's table bytes: 160 KB a match on SQLite with it, 124 without). A match that entered as a recorded document keeps them
 * in its rows, where they may differ from what the recorded bytes say.
 */
export const STATS_IN_DOCUMENT = '';

/**
 * Each participant's stats JSON of a match whose rows leave them to its documents, read from
 * any rendered variant (they all render the same stats; JSON.stringify gives back the exact
 * text, which was written by JSON.stringify of each value in a fixed key order).
 */
async function statsFromDocument(db: Db, matchId: string): Promise<Map<string, string>> {
  const row = await db
    .selectFrom('match_documents')
    .select('body_gzip')
    .where('match_id', '=', matchId)
    .where('variant', '<>', RECORDED_DOCUMENT)
    .limit(1)
    .executeTakeFirst();
  if (row === undefined) {
    throw new Error(
      `match ${matchId}: its participants' stats are in its documents, and none is stored`,
    );
  }
  const document = JSON.parse((await gunzip(row.body_gzip)).toString('utf8')) as {
    included?: Array<{ type: string; id: string; attributes?: { stats?: unknown } }>;
  };
  const stats = new Map<string, string>();
  for (const item of document.included ?? []) {
    if (item.type === 'participant') stats.set(item.id, JSON.stringify(item.attributes?.stats));
  }
  return stats;
}

/**
 * The stats JSON of each participant row, in their order: the row's own, or for a match that
 * leaves them to its documents (STATS_IN_DOCUMENT), its rendered document's.
 */
export async function participantStats(
  db: Db,
  matchId: string,
  rows: ReadonlyArray<{ id: string; stats: string }>,
): Promise<string[]> {
  if (!rows.some((row) => row.stats === STATS_IN_DOCUMENT)) return rows.map((row) => row.stats);
  const kept = await statsFromDocument(db, matchId);
  return rows.map((row) => {
    if (row.stats !== STATS_IN_DOCUMENT) return row.stats;
    const stats = kept.get(row.id);
    if (stats === undefined)
      throw new Error(`match ${matchId}: participant ${row.id} is not in its document`);
    return stats;
  });
}

/**
 * A stored match with its rosters and participants in document order, or null when absent.
 * Its rendered documents must still be stored when the participants' stats are kept in them:
 * read it before deleting them.
 */
export async function findMatchRecord(db: Db, matchId: string): Promise<MatchRecord | null> {
  const match = await db
    .selectFrom('matches')
    .selectAll()
    .where('id', '=', matchId)
    .executeTakeFirst();
  if (match === undefined) return null;
  const [rosters, participants] = await Promise.all([
    db
      .selectFrom('rosters')
      .select(['id', 'team_id', 'rank', 'won'])
      .where('match_id', '=', matchId)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('participants')
      .select(['id', 'roster_id', 'shard', 'stats'])
      .where('match_id', '=', matchId)
      .orderBy('position')
      .execute(),
  ]);
  const stats = await participantStats(db, matchId, participants);
  const members = new Map<string, string[]>();
  for (const p of participants) {
    const list = members.get(p.roster_id);
    if (list) list.push(p.id);
    else members.set(p.roster_id, [p.id]);
  }
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
    rosters: rosters.map((r) => ({
      id: r.id,
      teamId: r.team_id,
      rank: r.rank,
      won: r.won === 1,
      participantIds: members.get(r.id) ?? [],
    })),
    participants: participants.map((p, i) => ({
      id: p.id,
      platform: p.shard,
      statsJson: stats[i]!,
    })),
  };
}
