/**
 * The routes' one call into the mirror: refresh what a request reads from upstream when due,
 * and mark the answer stale (`Age`, `Warning: 110`) when the upstream could not be asked — on a
 * successful answer only: an error (the 503 or 429 when nothing is held) carries neither.
 */
import type { FastifyReply, onSendHookHandler } from 'fastify';
import type { ApiError } from '../http/jsonapi.ts';
import { STALE_WARNING } from '../http/keyed-documents.ts';
import { isRecordedListKind, type RecordedListKind } from '../ingest/recorded-lists.ts';
import { findRecordedDocument, type RecordedDocument } from '../store/recorded-documents.ts';
import type { Store } from '../store/store.ts';
import type { Mirror } from './mirror.ts';
import type { RecordedLookup } from './mirror-documents.ts';
import type { Freshness } from './ttl-refresh.ts';

/** Answers served from the store while the upstream could not be asked: their age in ms (null: unknown). */
const staleReplies = new WeakMap<FastifyReply, number | null>();

/**
 * Waits for a refresh and returns the error to answer with when the store then holds nothing
 * (the upstream was down or out of budget), else null; marks the reply stale in the first case.
 */
export async function awaitFreshness(
  refresh: Promise<Freshness>,
  reply: FastifyReply,
): Promise<ApiError | null> {
  const freshness = await refresh;
  if (freshness.state !== 'stale') return null;
  staleReplies.set(reply, freshness.ageMs);
  return freshness.error;
}

/** The path of a request URL without its query: what the upstream is asked for a keyed document. */
export const pathOf = (url: string): string => url.split('?', 1)[0]!;

/**
 * Refreshes a recorded document (stats, mastery, a clan; a seasons list, leaderboard or sample)
 * from the upstream when one is configured and the stored copy is past its kind's TTL; see
 * awaitFreshness for the answer.
 */
export function readThroughRecorded(
  mirror: Mirror | null,
  lookup: RecordedLookup,
  reply: FastifyReply,
): Promise<ApiError | null> {
  if (mirror === null) return Promise.resolve(null);
  const documents = isRecordedListKind(lookup.kind) ? mirror.lists : mirror.documents;
  return awaitFreshness(documents.refresh(lookup), reply);
}

/** What a route serves of a recorded list (a seasons list, leaderboard or sample). */
export interface RecordedList {
  /** The upstream's document as recorded; null when none is (or no upstream is configured). */
  recording: RecordedDocument | null;
  /** The 503 or 429 to answer when this service built nothing itself either; else null. */
  upstreamError: ApiError | null;
}

/**
 * With an upstream configured, refreshes a seasons list, leaderboard page or sample past
 * UPSTREAM_LIST_TTL_SECONDS and returns the recording to serve; the route serves what it built
 * itself only when there is none. Without an upstream: nothing, and the route answers as before.
 */
export async function readThroughList(
  deps: { mirror: Mirror | null; store: Store },
  lookup: RecordedLookup & { kind: RecordedListKind; platform: string },
  reply: FastifyReply,
): Promise<RecordedList> {
  if (deps.mirror === null) return { recording: null, upstreamError: null };
  const upstreamError = await readThroughRecorded(deps.mirror, lookup, reply);
  const { kind, platform, id } = lookup;
  const recording = await findRecordedDocument(deps.store.db, kind, platform, id);
  return { recording, upstreamError };
}

/**
 * The age in ms of the stale answer `reply` was marked as (null: unknown); undefined when it was
 * not marked stale. The document cache asks it, so a stale rendering is never kept.
 */
export function staleAge(reply: FastifyReply): number | null | undefined {
  return staleReplies.has(reply) ? (staleReplies.get(reply) ?? null) : undefined;
}

/**
 * onSend hook (registered by the app when an upstream is configured): adds `Age` (seconds) and
 * `Warning` to a successful answer that was marked stale, and nothing else.
 */
export const staleAnswerHeaders: onSendHookHandler = (_request, reply, payload, done) => {
  if (staleReplies.has(reply) && reply.statusCode < 400) {
    const ageMs = staleReplies.get(reply);
    if (ageMs != null) reply.header('age', Math.floor(ageMs / 1000));
    reply.header('warning', STALE_WARNING);
  }
  done(null, payload);
};
