import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteContext } from '../route-context.ts';
import { retentionWindowMs } from '../../config.ts';
import {
  STANDARD_GAME_MODES,
  isStandardGameMode,
  type StandardGameMode,
} from '../../domain/game-modes.ts';
import { FIRST_LIFETIME_SEASON, LIFETIME, seasonStatsShardRule } from '../../domain/seasons.ts';
import { isPcPlatform, type ResolvedShard } from '../../domain/shards.ts';
import { findPlayer, findPlayersByIds } from '../../store/players.ts';
import { findSeasonStatsRows, listStatsMatchIds } from '../../store/player-stats.ts';
import {
  renderPlayerSeason,
  renderPlayerSeasonList,
  type PlayerSeasonView,
} from '../../presenters/season-stats-document.ts';
import { NO_PLAYERS_FOUND, notFound, selfLink } from '../jsonapi.ts';
import { DOCUMENT_KINDS, playerTag } from '../../store/document-changes.ts';
import { PlayerFilterQuery, playerIdsFilter } from '../player-filter.ts';
import { seasonListsFor } from '../season-lists.ts';
import { PlayerSeasonDocument, PlayerSeasonListDocument } from '../schemas/season-documents.ts';
import { documentResponse, errorResponse } from '../schemas/responses.ts';
import { enforceShardRule, requestShard } from '../shards.ts';
import { pathOf, readThroughRecorded } from '../../upstream/read-through.ts';
import {
  seasonStatsListRecordingId,
  seasonStatsRecordingId,
} from '../../ingest/recorded-season-stats.ts';
import { findServedSeasonRecording } from '../../store/stats-recency.ts';
import { renderRecordedDocument } from '../../presenters/recorded-document.ts';

/** Most match ids a season stats record lists per game mode (REFERENCE §1.7). */
const MATCHES_PER_MODE = 32;

const PlayerSeasonParams = Type.Object({
  shard: Type.String(),
  accountId: Type.String(),
  seasonId: Type.String(),
});
const BatchParams = Type.Object({
  shard: Type.String(),
  seasonId: Type.String(),
  gameMode: Type.String(),
});

const SHARD_RULE =
  'PC seasons after `division.bro.official.2018-09` and lifetime are on the platform shard, ' +
  "earlier PC seasons on a platform-region shard, other platforms' seasons on either; " +
  'lifetime is PC only.';

const playerSeasonDocs = {
  summary: "A player's season or lifetime stats",
  description:
    'Stats of all six standard game modes, zero-filled for modes not played, with the matches ' +
    `counted (at most 32 per mode, retention window, no custom matches). ${SHARD_RULE}`,
  operationId: 'getPlayerSeasonStats',
  tags: ['stats'],
  response: {
    200: documentResponse('The stats', PlayerSeasonDocument),
    400: errorResponse(400, 'The season (or lifetime) is not served on this kind of shard'),
    404: errorResponse(404, 'Unknown shard, season or player'),
  },
};
const batchDocs = {
  summary: 'Season or lifetime stats of several players in one game mode',
  description:
    'Up to ten players by `filter[playerIds]`: each record holds the requested mode only. ' +
    `\`lifetime\` is accepted as the season. ${SHARD_RULE}`,
  operationId: 'getSeasonStatsBatch',
  tags: ['stats'],
  response: {
    200: documentResponse('The stats of the players found', PlayerSeasonListDocument),
    400: errorResponse(
      400,
      'No filter[playerIds] (or filter[playerNames] given), more than 10 ids, or a shard of the wrong kind',
    ),
    404: errorResponse(404, `${NO_PLAYERS_FOUND}, or an unknown shard, season or game mode`),
  },
};

/** Which stats a request reads: the aggregate rows' season, and the bounds of the match lists. */
interface StatsScope {
  platform: string;
  /** A season id, or `lifetime`. */
  seasonId: string;
  /** Season of the listed matches; null for lifetime (every season since the first counted). */
  listSeasonId: string | null;
  /** Listed matches are created at or after this instant, epoch ms. */
  since: number;
}

/**
 * `GET /shards/:shard/players/:accountId/seasons/:seasonId` (a season or `lifetime`) and the
 * batch form `GET /shards/:shard/seasons/:seasonId/gameMode/:gameMode/players?filter[playerIds]=…`
 * (keyed). Shard rules per spec §4: PC seasons after 2018-09 and lifetime on the platform shard,
 * earlier seasons on a platform-region shard, other platforms' seasons on either; lifetime on PC only.
 */
export function seasonStatsRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config, store, clock, documents, mirror } = context;
  const seasonLists = seasonListsFor(store, clock);
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  /** Checks the season and the shard kind it needs; throws 404 for an unknown season, 400 for a wrong shard. */
  async function statsScope(shard: ResolvedShard, seasonId: string): Promise<StatsScope> {
    const retentionStart = clock.now() - retentionWindowMs(config);
    const list = await seasonLists.get(shard.platform);
    if (seasonId === LIFETIME) {
      enforceShardRule(
        shard,
        { platform: true, region: false, pcOnly: true },
        'Lifetime stats',
        config,
      );
      const first = list.seasons.find((season) => season.id === FIRST_LIFETIME_SEASON.pc);
      const since = Math.max(retentionStart, first?.startsAt ?? -Infinity);
      return { platform: shard.platform, seasonId, listSeasonId: null, since };
    }
    if (!list.ids.has(seasonId))
      throw notFound(`Unknown season '${seasonId}' on shard '${shard.spelling}'`);
    const rule = seasonStatsShardRule(isPcPlatform(shard.platform), seasonId);
    enforceShardRule(shard, rule, `Season stats of ${seasonId}`, config);
    return { platform: shard.platform, seasonId, listSeasonId: seasonId, since: retentionStart };
  }

  /** The stats of these players in these modes: one query for the aggregates, one for the match lists. */
  async function playerSeasons(
    scope: StatsScope,
    accountIds: readonly string[],
    gameModes: readonly StandardGameMode[],
  ): Promise<PlayerSeasonView[]> {
    const [stats, matches] = await Promise.all([
      findSeasonStatsRows(store.db, { ...scope, accountIds, gameModes }),
      listStatsMatchIds(store.db, {
        platform: scope.platform,
        accountIds,
        gameModes,
        seasonId: scope.listSeasonId,
        since: scope.since,
        perMode: MATCHES_PER_MODE,
      }),
    ]);
    return accountIds.map((accountId) => ({
      accountId,
      seasonId: scope.seasonId,
      gameModes,
      stats: stats.get(accountId),
      matches: matches.get(accountId),
    }));
  }

  routes.get(
    '/shards/:shard/players/:accountId/seasons/:seasonId',
    {
      schema: { ...playerSeasonDocs, params: PlayerSeasonParams },
      onRequest: context.requireApiKey,
    },
    (request, reply) =>
      documents.serve(request, reply, DOCUMENT_KINDS.players, async () => {
        const { accountId, seasonId } = request.params;
        const shard = requestShard(request.params.shard, config);
        const scope = await statsScope(shard, seasonId);
        const id = seasonStatsRecordingId(accountId, seasonId);
        const upstreamError = await readThroughRecorded(
          mirror,
          { kind: 'playerSeason', shard: request.params.shard, id, path: pathOf(request.url) },
          reply,
        );
        const self = selfLink(config.publicBaseUrl, request);
        const tags = [playerTag(shard.platform, accountId), DOCUMENT_KINDS.seasons];
        const { platform, listSeasonId } = scope;
        const query = {
          kind: 'playerSeason' as const,
          platform,
          accountIds: [accountId],
          id,
          listSeasonId,
        };
        const recording = await findServedSeasonRecording(store.db, query);
        if (recording !== null) return { body: renderRecordedDocument(recording, self), tags };
        const [player, [view]] = await Promise.all([
          findPlayer(store.db, shard.platform, accountId),
          playerSeasons(scope, [accountId], STANDARD_GAME_MODES),
        ]);
        if (!player) {
          throw upstreamError ?? notFound(`No player '${accountId}' on shard '${shard.spelling}'`);
        }
        return { body: renderPlayerSeason(view!, self), tags };
      }),
  );

  routes.get(
    '/shards/:shard/seasons/:seasonId/gameMode/:gameMode/players',
    {
      schema: { ...batchDocs, params: BatchParams, querystring: PlayerFilterQuery },
      onRequest: context.requireApiKey,
    },
    (request, reply) =>
      documents.serve(request, reply, DOCUMENT_KINDS.players, async () => {
        const { seasonId, gameMode } = request.params;
        const shard = requestShard(request.params.shard, config);
        if (!isStandardGameMode(gameMode)) {
          throw notFound(
            `Unknown game mode '${gameMode}'; one of ${STANDARD_GAME_MODES.join(', ')}`,
          );
        }
        const accountIds = playerIdsFilter(request.query);
        const scope = await statsScope(shard, seasonId);
        const id = seasonStatsListRecordingId(seasonId, gameMode, accountIds);
        const path = `${pathOf(request.url)}?filter[playerIds]=${accountIds.map(encodeURIComponent).join(',')}`;
        const upstreamError = await readThroughRecorded(
          mirror,
          { kind: 'playerSeasonList', shard: request.params.shard, id, path },
          reply,
        );
        const self = selfLink(config.publicBaseUrl, request);
        // Every id asked for: one not found yet may be a player by the next ingest.
        const tags = [
          ...accountIds.map((id) => playerTag(shard.platform, id)),
          DOCUMENT_KINDS.seasons,
        ];
        const { platform, listSeasonId } = scope;
        const query = { kind: 'playerSeasonList' as const, platform, accountIds, id, listSeasonId };
        const recording = await findServedSeasonRecording(store.db, query);
        if (recording !== null) return { body: renderRecordedDocument(recording, self), tags };
        const [players, views] = await Promise.all([
          findPlayersByIds(store.db, shard.platform, accountIds),
          playerSeasons(scope, accountIds, [gameMode]),
        ]);
        const found = views.filter((view) => players.has(view.accountId));
        if (found.length === 0) throw upstreamError ?? notFound(NO_PLAYERS_FOUND);
        return { body: renderPlayerSeasonList(found, self), tags };
      }),
  );
}
