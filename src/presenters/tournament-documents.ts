import { isoSeconds } from '../domain/time.ts';
import type { TournamentSummary } from '../store/tournaments.ts';

/** `GET /tournaments`: references with their creation time. */
export function renderTournamentList(
  tournaments: readonly TournamentSummary[],
  self: string,
): string {
  return JSON.stringify({
    data: tournaments.map((t) => ({
      type: 'tournament',
      id: t.id,
      attributes: { createdAt: isoSeconds(t.createdAt) },
    })),
    links: { self },
    meta: {},
  });
}

/**
 * `GET /tournaments/<id>`: the tournament with its match references, and match stubs in
 * `included`; the matches themselves resolve on `/shards/tournament/matches/<id>`.
 */
export function renderTournament(
  tournament: TournamentSummary,
  matches: ReadonlyArray<{ id: string; createdAt: number }>,
  self: string,
): string {
  return JSON.stringify({
    data: {
      type: 'tournament',
      id: tournament.id,
      attributes: { createdAt: isoSeconds(tournament.createdAt) },
      relationships: { matches: { data: matches.map((m) => ({ type: 'match', id: m.id })) } },
    },
    included: matches.map((m) => ({
      type: 'match',
      id: m.id,
      attributes: { createdAt: isoSeconds(m.createdAt) },
    })),
    links: { self },
    meta: {},
  });
}
