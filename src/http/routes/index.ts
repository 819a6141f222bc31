import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../route-context.ts';
import { statusRoutes } from './status.ts';
import { healthRoutes } from './health.ts';
import { matchRoutes } from './matches.ts';
import { telemetryRoutes } from './telemetry.ts';
import { playerRoutes } from './players.ts';
import { seasonRoutes } from './seasons.ts';
import { seasonStatsRoutes } from './season-stats.ts';
import { tournamentRoutes } from './tournaments.ts';
import { leaderboardRoutes } from './leaderboards.ts';
import { sampleRoutes } from './samples.ts';
import { rankedRoutes } from './ranked.ts';
import { clanRoutes } from './clans.ts';
import { ingestRoutes } from './ingest.ts';
import { masteryRoutes } from './mastery.ts';

/** Every route module, registered in this order by `buildApp`. */
export const ROUTES: Array<(app: FastifyInstance, context: RouteContext) => void> = [
  statusRoutes,
  healthRoutes,
  matchRoutes,
  telemetryRoutes,
  playerRoutes,
  seasonRoutes,
  seasonStatsRoutes,
  tournamentRoutes,
  leaderboardRoutes,
  sampleRoutes,
  rankedRoutes,
  clanRoutes,
  ingestRoutes,
  masteryRoutes,
];
