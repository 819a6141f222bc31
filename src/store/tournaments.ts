import type { Db } from './store.ts';

export interface TournamentSummary {
  id: string;
  createdAt: number;
}

/** Every tournament that still has a match created at or after `since`, newest first. */
export async function listTournaments(db: Db, since: number): Promise<TournamentSummary[]> {
  const rows = await db
    .selectFrom('tournaments')
    .select(['id', 'created_at'])
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('matches')
          .select('matches.id')
          .whereRef('matches.tournament_id', '=', 'tournaments.id')
          .where('matches.created_at', '>=', since),
      ),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, createdAt: row.created_at }));
}

/**
 * A tournament and its matches created at or after `since`, oldest first (the order they were
 * played); null when the tournament is unknown.
 */
export async function findTournament(
  db: Db,
  id: string,
  since: number,
): Promise<{
  tournament: TournamentSummary;
  matches: Array<{ id: string; createdAt: number }>;
} | null> {
  const tournament = await db
    .selectFrom('tournaments')
    .select(['id', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!tournament) return null;
  const matches = await db
    .selectFrom('matches')
    .select(['id', 'created_at'])
    .where('tournament_id', '=', id)
    .where('created_at', '>=', since)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return {
    tournament: { id: tournament.id, createdAt: tournament.created_at },
    matches: matches.map((row) => ({ id: row.id, createdAt: row.created_at })),
  };
}
