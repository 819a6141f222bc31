/**
 * What the bench measures: every endpoint issue 10 names, with the goal the issue sets for it,
 * and the variant comparisons (the same endpoint, the service started with other environment
 * variables). Pure data; `discover-paths.ts` finds the concrete paths on a running service.
 */

/** Ratio goals of issue 10 (× the bare server, in requests/s and in CPU per request). */
export const GOALS = {
  match: 0.9,
  keyed: 0.5,
  telemetry: 0.6,
  probe: 0.8,
  /** Metrics must cost under 5% on the match path. */
  metrics: 0.95,
} as const;

/** Every endpoint's p99 latency at the bench's connection count must stay under this (ms). */
export const P99_GOAL_MS = 10;

export interface EndpointSpec {
  /** What `--only` names. */
  id: string;
  label: string;
  /** Needs the bench's API key. */
  keyed: boolean;
  /** Measured on one path (`hot`) and on many (`spread`), or on one only. */
  modes: ReadonlyArray<'hot' | 'spread'>;
  /** Minimum ratio to the baseline; null: reported, no goal. */
  goal: number | null;
  /**
   * OpenAPI path template (parameters as `{}`) that must exist for the row to be measured;
   * unset: the endpoint is always there.
   */
  requiresRoute?: string;
}

const keyed = (
  id: string,
  label: string,
  modes: EndpointSpec['modes'] = ['hot', 'spread'],
  requiresRoute?: string,
): EndpointSpec => ({
  id,
  label,
  keyed: true,
  modes,
  goal: GOALS.keyed,
  ...(requiresRoute ? { requiresRoute } : {}),
});

export const ENDPOINTS: readonly EndpointSpec[] = [
  { id: 'match', label: 'match', keyed: false, modes: ['hot', 'spread'], goal: GOALS.match },
  keyed('leaderboard', 'leaderboard page'),
  { id: 'status', label: '/status', keyed: false, modes: ['hot'], goal: GOALS.probe },
  { id: 'healthz', label: '/healthz', keyed: false, modes: ['hot'], goal: GOALS.probe },
  keyed('samples', 'samples'),
  {
    id: 'telemetry',
    label: 'telemetry file',
    keyed: false,
    modes: ['hot', 'spread'],
    goal: GOALS.telemetry,
  },
  keyed('player-name', 'player by name, 1 name'),
  keyed('players-10-names', 'players by 10 names'),
  keyed('player-id', 'player by id'),
  keyed('season-stats', 'season stats'),
  keyed('lifetime-stats', 'lifetime stats'),
  keyed(
    'batch-stats',
    'batch season stats, 10 ids',
    ['hot', 'spread'],
    '/shards/{}/seasons/{}/gameMode/{}/players',
  ),
  keyed('seasons', 'seasons list'),
  keyed('tournaments', 'tournaments list', ['hot']),
  keyed('tournament', 'tournament by id'),
  keyed(
    'ranked-stats',
    'ranked stats',
    ['hot', 'spread'],
    '/shards/{}/players/{}/seasons/{}/ranked',
  ),
  keyed(
    'weapon-mastery',
    'weapon mastery',
    ['hot', 'spread'],
    '/shards/{}/players/{}/weapon_mastery',
  ),
  keyed(
    'survival-mastery',
    'survival mastery',
    ['hot', 'spread'],
    '/shards/{}/players/{}/survival_mastery',
  ),
  keyed('clan', 'clan', ['hot', 'spread'], '/shards/{}/clans/{}'),
];

/**
 * A variant: one endpoint's row, the service with `subjectEnv` against the service with
 * `baselineEnv` (both on top of the bench's defaults), in the same alternating slices. Present
 * when `requiresPath` answers something other than 404 (a feature that exists on this build).
 */
export interface VariantSpec {
  id: string;
  label: string;
  endpoint: string;
  mode: 'hot' | 'spread';
  subjectEnv: Readonly<Record<string, string>>;
  baselineEnv: Readonly<Record<string, string>>;
  baselineLabel: string;
  goal: number | null;
  requiresPath?: string;
}

export const VARIANTS: readonly VariantSpec[] = [
  {
    id: 'metrics',
    label: 'match, METRICS=on',
    endpoint: 'match',
    mode: 'hot',
    subjectEnv: { METRICS: 'on' },
    baselineEnv: { METRICS: 'off' },
    baselineLabel: 'METRICS=off',
    goal: GOALS.metrics,
    requiresPath: '/metrics',
  },
  {
    id: 'access-log',
    label: 'match, ACCESS_LOG=on',
    endpoint: 'match',
    mode: 'hot',
    subjectEnv: {},
    baselineEnv: { ACCESS_LOG: 'off' },
    baselineLabel: 'ACCESS_LOG=off',
    goal: null,
  },
  {
    id: 'match-cache-off',
    label: 'match, MATCH_CACHE_MB=0',
    endpoint: 'match',
    mode: 'spread',
    subjectEnv: { MATCH_CACHE_MB: '0' },
    baselineEnv: {},
    baselineLabel: 'default cache',
    goal: null,
  },
  {
    id: 'document-cache-off',
    label: 'player by id, DOCUMENT_CACHE_MB=0',
    endpoint: 'player-id',
    mode: 'spread',
    subjectEnv: { DOCUMENT_CACHE_MB: '0' },
    baselineEnv: {},
    baselineLabel: 'default cache',
    goal: null,
  },
];

/** Every name `--only` accepts. */
export const ROW_IDS: readonly string[] = [
  ...ENDPOINTS.map((endpoint) => endpoint.id),
  ...VARIANTS.map((variant) => variant.id),
];
