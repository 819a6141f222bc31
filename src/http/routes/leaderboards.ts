import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RouteContext } from '../route-context.ts';
import { STANDARD_GAME_MODES, isStandardGameMode } from '../../domain/game-modes.ts';
import { LEADERBOARD_SIZE, REGIONAL_LEADERBOARD_SIZE } from '../../domain/ranking.ts';
import type { ResolvedShard } from '../../domain/shards.ts';
import { badRequest, notFound, serviceUnavailable } from '../jsonapi.ts';
import { AWAITED_RETRY_AFTER_SECONDS } from '../../jobs/job-progress.ts';
import { LeaderboardDocument } from '../schemas/leaderboard-document.ts';
import { documentResponse, errorResponse, notModified } from '../schemas/responses.ts';
import { leaderboardPages, type PageRequest } from '../leaderboard-pages.ts';
import { leaderboardAnswers } from '../leaderboard-answers.ts';
import { acceptsGzip, isNotModified } from '../precompressed.ts';
import { seasonListsFor, type PlatformSeasons } from '../season-lists.ts';
import { COMBINED_SHARD_REFUSED, enforceShardRule, requestShard } from '../shards.ts';
import { renderRecordedDocument } from '../../presenters/recorded-document.ts';
import { pathOf, readThroughList } from '../../upstream/read-through.ts';

const PAGE_SIZE = 100;
/** The job that builds leaderboards (src/jobs/rebuild-leaderboards.ts). */
const JOB = 'leaderboards';
const PAGE_PARAMETER = 'page[number]';
const LAST_PAGE = LEADERBOARD_SIZE / PAGE_SIZE - 1;

const GameModeParams = Type.Object({ shard: Type.String(), gameMode: Type.String() });
const SeasonParams = Type.Object({
  shard: Type.String(),
  seasonId: Type.String(),
  gameMode: Type.String(),
});

/** The path's game mode, or a 404 naming it and the modes that have leaderboards. */
function leaderboardGameMode(gameMode: string): string {
  if (isStandardGameMode(gameMode)) return gameMode;
  throw notFound(
    `No leaderboard for game mode '${gameMode}'; the game modes are ${STANDARD_GAME_MODES.join(', ')}`,
  );
}

const PAGE_RULE = `${PAGE_PARAMETER} must be an integer from 0 to ${LAST_PAGE} (pages of ${PAGE_SIZE} players)`;

/** `page[number]`: absent is page 0 (not a schema default, which would show in the self link). */
const PageQuery = Type.Object({
  [PAGE_PARAMETER]: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: LAST_PAGE,
      description: `The page of ${PAGE_SIZE} players: 0 (ranks 1–100, the default) to ${LAST_PAGE}`,
      examples: [0],
    }),
  ),
});

const STARTING =
  'No build yet and the job building it runs since the service started (Retry-After says when to ask again)';
const CURRENT_SEASON_ONLY = 'Leaderboards are kept for the current season only.';

const pageDocs = {
  summary: "A page of a game mode's leaderboard",
  description:
    'The top 1000 of the current season on a PC platform shard, as 10 pages of 100. ' +
    'Cacheable until the next rebuild (every LEADERBOARD_INTERVAL_MINUTES); empty until the ' +
    `first build of a season. ${CURRENT_SEASON_ONLY}`,
  operationId: 'getLeaderboardPage',
  tags: ['leaderboards'],
  response: {
    200: documentResponse('The page', LeaderboardDocument),
    304: notModified,
    400: errorResponse(
      400,
      `${PAGE_RULE}; or a shard other than a PC platform shard, such as ${COMBINED_SHARD_REFUSED}`,
    ),
    404: errorResponse(404, 'Unknown shard or game mode, or no current season'),
    503: errorResponse(503, STARTING),
  },
};
const regionDocs = {
  summary: "A region's leaderboard of the current season",
  description:
    "The real service's form: the region's top 500 on a PC platform-region shard, in one page. " +
    CURRENT_SEASON_ONLY,
  operationId: 'getRegionLeaderboard',
  tags: ['leaderboards'],
  response: {
    200: documentResponse("The region's leaderboard", LeaderboardDocument),
    304: notModified,
    400: errorResponse(
      400,
      `A shard other than a PC platform-region shard, such as ${COMBINED_SHARD_REFUSED}`,
    ),
    404: errorResponse(
      404,
      'Unknown shard, season or game mode, or a season other than the current',
    ),
    503: errorResponse(503, STARTING),
  },
};

/**
 * `GET /shards/:shard/leaderboards/:gameMode?page[number]=N` (spec §4: a PC platform shard, ten
 * pages of 100 of the top 1000) and `GET /shards/:shard/leaderboards/:seasonId/:gameMode` (the
 * real service's form, REFERENCE §3.10: a PC platform-region shard, the region's top 500), both
 * keyed and of the current season only.
 *
 * Pages are served as bytes rendered once per build (src/http/leaderboard-pages.ts), with an
 * ETag, and are cacheable until the next rebuild is due. Before the job's first build of a
 * season every page is empty — 200, cacheable for seconds, with a stand-in id derived from the
 * leaderboard — rather than an error. A page answered once is answered again in front of Fastify
 * (src/http/leaderboard-answers.ts) while its build and its season stand.
 */
export function leaderboardRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config, store, clock, mirror } = context;
  const seasonLists = seasonListsFor(store, clock);
  const pages = leaderboardPages(store, clock, context.documents.watch);
  const answers = leaderboardAnswers(pages);
  // With a mirror, a page may be the upstream's recording, read through on its own schedule.
  if (!mirror) context.fastPath.add(answers.source);
  context.jobProgress?.onEnded((name) => {
    if (name === JOB) pages.forgetMissing();
  });
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  /** The shard's season list, and the id of its current season (404 when there is none). */
  async function currentSeason(
    shard: ResolvedShard,
  ): Promise<{ seasons: PlatformSeasons; seasonId: string }> {
    const seasons = await seasonLists.get(shard.platform);
    if (seasons.current === null) throw notFound(`Shard '${shard.spelling}' has no current season`);
    return { seasons, seasonId: seasons.current.id };
  }

  /**
   * With an upstream (UPSTREAM_URL): the upstream's page as recorded (read through when past
   * UPSTREAM_LIST_TTL_SECONDS); this service's own build only while none is recorded, and then
   * a 503 or 429 instead of an unbuilt (empty) page when the upstream could not be asked.
   */
  async function send(
    request: FastifyRequest,
    reply: FastifyReply,
    wanted: PageRequest,
    seasons: PlatformSeasons,
  ): Promise<FastifyReply> {
    const { seasonId, gameMode } = wanted.key;
    const recordedId = `${seasonId}:${gameMode}:${wanted.variant.replaceAll('\u0000', ':')}`;
    const query = wanted.selfUrl.includes('?') ? `?${wanted.selfUrl.split('?')[1]}` : '';
    const { recording, upstreamError } = await readThroughList(
      { mirror, store },
      {
        kind: 'leaderboard',
        shard: wanted.shardId,
        platform: wanted.key.platform,
        id: recordedId,
        path: `${pathOf(request.url)}${query}`,
      },
      reply,
    );
    if (recording !== null) {
      reply.header('content-type', request.negotiatedType);
      return reply.send(renderRecordedDocument(recording, wanted.selfUrl));
    }
    const { page: rendered, validUntil, built, build } = await pages.get(wanted);
    if (!built && upstreamError !== null) throw upstreamError;
    if (!built && context.jobProgress?.awaiting(JOB)) {
      throw serviceUnavailable(
        'The leaderboards are being built since the service started; try again shortly',
        AWAITED_RETRY_AFTER_SECONDS,
      );
    }
    if (built && !mirror) {
      answers.remember(request.url, {
        route: request.routeOptions.url!,
        page: rendered,
        build,
        clientFreshUntil: validUntil,
        seasonsFrom: seasons.loadedAt,
        seasonsUntil: seasons.validUntil,
      });
    }
    const maxAge = Math.max(0, Math.floor((validUntil - clock.now()) / 1000));
    const gzipped = acceptsGzip(request);
    reply.header('cache-control', `public, max-age=${maxAge}`);
    reply.header('etag', gzipped ? rendered.etagGzip : rendered.etag);
    reply.header('vary', 'Accept-Encoding');
    if (isNotModified(request, rendered.etag, rendered.etagGzip)) return reply.code(304).send();
    reply.header('content-type', request.negotiatedType);
    // Already gzipped: the compression plugin leaves a body with a Content-Encoding alone.
    if (gzipped) reply.header('content-encoding', 'gzip');
    return reply.send(gzipped ? rendered.bodyGzip : rendered.body);
  }

  routes.get(
    '/shards/:shard/leaderboards/:gameMode',
    {
      schema: { ...pageDocs, params: GameModeParams, querystring: PageQuery },
      // Ajv checks (and converts) page[number]; the answer words the rule.
      schemaErrorFormatter: () => badRequest(PAGE_RULE),
      onRequest: context.requireApiKey,
    },
    async (request, reply) => {
      const shard = requestShard(request.params.shard, config);
      enforceShardRule(
        shard,
        { platform: true, region: false, pcOnly: true },
        'Leaderboards',
        config,
      );
      const gameMode = leaderboardGameMode(request.params.gameMode);
      const requested = request.query[PAGE_PARAMETER];
      const page = requested ?? 0;
      const { seasons, seasonId } = await currentSeason(shard);
      const query = requested === undefined ? '' : `?${PAGE_PARAMETER}=${page}`;
      return send(
        request,
        reply,
        {
          key: { platform: shard.platform, seasonId, gameMode },
          variant: `page\u0000${shard.spelling}\u0000${page}${query}`,
          selection: { fromRank: page * PAGE_SIZE + 1, toRank: (page + 1) * PAGE_SIZE },
          shardId: shard.spelling,
          selfUrl: `${config.publicBaseUrl}/shards/${shard.spelling}/leaderboards/${gameMode}${query}`,
        },
        seasons,
      );
    },
  );

  routes.get(
    '/shards/:shard/leaderboards/:seasonId/:gameMode',
    { schema: { ...regionDocs, params: SeasonParams }, onRequest: context.requireApiKey },
    async (request, reply) => {
      const { seasonId } = request.params;
      const shard = requestShard(request.params.shard, config);
      enforceShardRule(
        shard,
        { platform: false, region: true, pcOnly: true },
        'Season leaderboards',
        config,
      );
      const gameMode = leaderboardGameMode(request.params.gameMode);
      if (!(await seasonLists.get(shard.platform)).ids.has(seasonId))
        throw notFound(`Unknown season '${seasonId}' on shard '${shard.spelling}'`);
      const { seasons, seasonId: current } = await currentSeason(shard);
      if (seasonId !== current) {
        throw notFound(
          `Leaderboards are kept for the current season only ('${current}'), not for '${seasonId}'`,
        );
      }
      return send(
        request,
        reply,
        {
          key: { platform: shard.platform, seasonId, gameMode },
          variant: `region\u0000${shard.spelling}`,
          selection: { region: shard.canonical, limit: REGIONAL_LEADERBOARD_SIZE },
          shardId: shard.spelling,
          selfUrl: `${config.publicBaseUrl}/shards/${shard.spelling}/leaderboards/${seasonId}/${gameMode}`,
        },
        seasons,
      );
    },
  );
}
