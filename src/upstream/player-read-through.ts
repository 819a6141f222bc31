/**
 * The players routes' one call into the mirror: refresh a lookup from upstream when due, and
 * mark the answer stale (`Age`, `Warning: 110`) when the upstream could not be asked — on a
 * successful answer only: an error (the 503 or 429 when nothing is held) carries neither.
 */
import type { FastifyReply, onSendHookHandler } from 'fastify';
import type { ApiError } from '../http/jsonapi.ts';
import type { Mirror } from './mirror.ts';
import type { PlayerLookup } from './mirror-players.ts';

/** Answers served from the store while the upstream could not be asked: their age in ms (null: unknown). */
const staleReplies = new WeakMap<FastifyReply, number | null>();

/**
 * Refreshes `lookup` from the upstream when an upstream is configured and the stored copy is
 * past its TTL. Returns the error to answer with when the store then holds none of the players
 * (the upstream was down or out of budget), else null.
 */
export async function readThroughPlayers(
  mirror: Mirror | null,
  lookup: PlayerLookup,
  reply: FastifyReply,
): Promise<ApiError | null> {
  if (mirror === null) return null;
  const freshness = await mirror.players.refresh(lookup);
  if (freshness.state !== 'stale') return null;
  staleReplies.set(reply, freshness.ageMs);
  return freshness.error;
}

/**
 * onSend hook (registered by the app when an upstream is configured): adds `Age` (seconds) and
 * `Warning` to a successful answer that readThroughPlayers marked stale, and nothing else.
 */
export const staleAnswerHeaders: onSendHookHandler = (_request, reply, payload, done) => {
  if (staleReplies.has(reply) && reply.statusCode < 400) {
    const ageMs = staleReplies.get(reply);
    if (ageMs != null) reply.header('age', Math.floor(ageMs / 1000));
    reply.header('warning', '110 - "Response is Stale"');
  }
  done(null, payload);
};
