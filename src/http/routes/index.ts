import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../../app.ts';
import { statusRoutes } from './status.ts';

/** Every route module, registered in this order by `buildApp`. */
export const ROUTES: Array<(app: FastifyInstance, context: RouteContext) => void> = [statusRoutes];
