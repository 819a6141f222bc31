/**
 * Rendered match documents: read a stored variant, or render it from the match's rows on first
 * request, store it and return it. Documents never change once rendered.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import {
  documentEtag,
  matchDocumentVariantKey,
  renderMatchDocument,
  type MatchDocumentVariant,
  type MatchRecord,
} from '../presenters/match-document.ts';
import type { Db, Store } from './store.ts';

const gzip = promisify(zlib.gzip);

/** A rendered match document as bytes, with the match facts a route needs to serve it. */
export interface StoredMatchDocument {
  /** Strong ETag, quoted. */
  etag: string;
  body: Buffer;
  bodyGzip: Buffer;
  /** The match's createdAt, epoch ms (for the retention window). */
  createdAt: number;
  /** The match's canonical platform. */
  platform: string;
}

/** Renders a document variant to its stored form: UTF-8 bytes, their gzip and ETag. */
export async function renderStoredDocument(
  match: MatchRecord,
  variant: MatchDocumentVariant,
): Promise<{ body: Buffer; bodyGzip: Buffer; etag: string }> {
  const body = Buffer.from(renderMatchDocument(match, variant));
  return { body, bodyGzip: await gzip(body), etag: documentEtag(body) };
}

/**
 * The document of a match in one variant, or null when the match is not stored. One indexed
 * read when the variant was rendered before; otherwise the match's rows are read (three
 * queries), rendered once and stored for the next request.
 */
export async function loadMatchDocument(
  store: Store,
  matchId: string,
  variant: MatchDocumentVariant,
): Promise<StoredMatchDocument | null> {
  const key = matchDocumentVariantKey(variant);
  const stored = await store.db
    .selectFrom('match_documents as d')
    .innerJoin('matches as m', 'm.id', 'd.match_id')
    .select(['d.etag', 'd.body', 'd.body_gzip', 'm.created_at', 'm.platform'])
    .where('d.match_id', '=', matchId)
    .where('d.variant', '=', key)
    .executeTakeFirst();
  if (stored) {
    return {
      etag: stored.etag,
      body: Buffer.from(stored.body),
      bodyGzip: Buffer.from(stored.body_gzip),
      createdAt: stored.created_at,
      platform: stored.platform,
    };
  }

  const match = await findMatchRecord(store.db, matchId);
  // A match is only rendered for a shard of its own platform: nobody can fill the table with
  // documents of shards the match does not belong to.
  if (match === null || match.platform !== variant.shard.platform) return null;
  const rendered = await renderStoredDocument(match, variant);
  await store.db
    .insertInto('match_documents')
    .values({
      match_id: matchId,
      variant: key,
      etag: rendered.etag,
      body: rendered.body,
      body_gzip: rendered.bodyGzip,
      created_at: match.createdAt,
    })
    .onConflict((oc) => oc.columns(['match_id', 'variant']).doNothing())
    .execute();
  return { ...rendered, createdAt: match.createdAt, platform: match.platform };
}

/** A stored match with its rosters and participants in document order, or null when absent. */
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
    rosters: rosters.map((r) => ({
      id: r.id,
      teamId: r.team_id,
      rank: r.rank,
      won: r.won === 1,
      participantIds: members.get(r.id) ?? [],
    })),
    participants: participants.map((p) => ({ id: p.id, platform: p.shard, statsJson: p.stats })),
  };
}
