import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteContext } from '../route-context.ts';
import { retentionCutoff } from '../../domain/retention.ts';
import { retentionWindowMs } from '../../config.ts';
import { matchListing } from '../keyed-documents.ts';
import { findTournament, listTournaments } from '../../store/tournaments.ts';
import { renderTournament, renderTournamentList } from '../../presenters/tournament-documents.ts';
import { notFound, selfLink } from '../jsonapi.ts';
import { DOCUMENT_KINDS } from '../../store/document-changes.ts';
import { TournamentDocument, TournamentListDocument } from '../schemas/tournament-documents.ts';
import { documentResponse, errorResponse } from '../schemas/responses.ts';

const listDocs = {
  summary: 'Tournaments',
  description: 'Every tournament with matches inside the retention window.',
  operationId: 'listTournaments',
  tags: ['tournaments'],
  response: { 200: documentResponse('The tournaments', TournamentListDocument) },
};
const tournamentDocs = {
  summary: 'A tournament and its matches',
  description:
    'The tournament with its matches of the retention window; fetch each match on the ' +
    '`tournament` shard (`/shards/tournament/matches/{matchId}`).',
  operationId: 'getTournament',
  tags: ['tournaments'],
  response: {
    200: documentResponse('The tournament', TournamentDocument),
    400: errorResponse(400, 'The tournament id is longer than 64 characters'),
    404: errorResponse(404, 'No such tournament, or none of its matches is kept any longer'),
  },
};

/**
 * `GET /tournaments` and `GET /tournaments/<id>` (keyed, no shard segment). Only matches inside
 * the retention window are listed; a tournament whose matches all expired is gone.
 */
export function tournamentRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config, store, clock, documents } = context;
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const since = (): number => retentionCutoff(config.retentionDays, clock.now());

  routes.get(
    '/tournaments',
    { schema: listDocs, onRequest: context.requireApiKey },
    (request, reply) =>
      documents.serve(request, reply, DOCUMENT_KINDS.tournaments, async () => {
        const tournaments = await listTournaments(store.db, since());
        const self = selfLink(config.publicBaseUrl, request);
        return { body: renderTournamentList(tournaments, self), tags: [] };
      }),
  );

  routes.get(
    '/tournaments/:tournamentId',
    {
      schema: {
        ...tournamentDocs,
        params: Type.Object({ tournamentId: Type.String({ minLength: 1, maxLength: 64 }) }),
      },
      onRequest: context.requireApiKey,
    },
    (request, reply) =>
      documents.serve(request, reply, DOCUMENT_KINDS.tournaments, async () => {
        const { tournamentId } = request.params;
        const found = await findTournament(store.db, tournamentId, since());
        if (!found || found.matches.length === 0) {
          throw notFound(`No tournament '${tournamentId}'`);
        }
        const self = selfLink(config.publicBaseUrl, request);
        // Listed oldest first: its first match is the one the window takes first. A purge of
        // any tournament match announces `tournaments`.
        const { validUntil } = matchListing(found.matches[0]!.createdAt, retentionWindowMs(config));
        return {
          body: renderTournament(found.tournament, found.matches, self),
          tags: [],
          validUntil,
        };
      }),
  );
}
