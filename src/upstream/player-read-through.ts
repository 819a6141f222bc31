/**
 * The players routes' one call into the mirror: refresh a lookup from upstream when due, and
 * mark the answer stale (`Age`, `Warning: 110`) when the upstream could not be asked.
 */
import type { FastifyReply } from 'fastify';
import type { ApiError } from '../http/jsonapi.ts';
import type { Mirror } from './mirror.ts';
import type { PlayerLookup } from './mirror-players.ts';

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
  if (freshness.ageMs !== null) reply.header('age', Math.floor(freshness.ageMs / 1000));
  reply.header('warning', '110 - "Response is Stale"');
  return freshness.error;
}
