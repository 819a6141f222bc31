/**
 * The players routes' call into the mirror: refresh a lookup from upstream when due, marking the
 * answer stale when the upstream could not be asked (read-through.ts).
 */
import type { FastifyReply } from 'fastify';
import type { ApiError } from '../http/jsonapi.ts';
import type { Mirror } from './mirror.ts';
import type { PlayerLookup } from './mirror-players.ts';
import { awaitFreshness } from './read-through.ts';

export { staleAnswerHeaders } from './read-through.ts';

/**
 * Refreshes `lookup` from the upstream when an upstream is configured and the stored copy is
 * past its TTL. Returns the error to answer with when the store then holds none of the players
 * (the upstream was down or out of budget), else null.
 */
export function readThroughPlayers(
  mirror: Mirror | null,
  lookup: PlayerLookup,
  reply: FastifyReply,
): Promise<ApiError | null> {
  if (mirror === null) return Promise.resolve(null);
  return awaitFreshness(mirror.players.refresh(lookup), reply);
}
