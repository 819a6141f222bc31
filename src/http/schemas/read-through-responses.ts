/**
 * What the 429 and 503 of a route mean, for the OpenAPI document: a keyed route's 429 is its
 * key's budget; a route that reads through to UPSTREAM_URL (src/upstream/) when one is
 * configured also answers 429 when the upstream budget is spent and 503 when the upstream is
 * down, for what the store does not hold.
 */

/** Operations that fetch what the store lacks from the upstream. */
const READ_THROUGH_OPERATIONS: ReadonlySet<string> = new Set([
  'getMatch',
  'getTelemetry',
  'getPlayer',
  'searchPlayers',
  'getPlayerSeasonStats',
  'getSeasonStatsBatch',
  'getRankedStats',
  'getWeaponMastery',
  'getSurvivalMastery',
  'getClan',
  'listSeasons',
  'getLeaderboardPage',
  'getRegionLeaderboard',
  'getSamples',
]);

/** Whether the route of `operationId` reads through, given whether an upstream is configured. */
export function readsThrough(upstreamConfigured: boolean, operationId: unknown): boolean {
  return upstreamConfigured && READ_THROUGH_OPERATIONS.has(String(operationId));
}

/** The causes of a route's 429 (null: it answers none) and 503, as documented. */
export function busyAndUnavailableCauses(kind: { limited: boolean; readThrough: boolean }): {
  tooMany: string | null;
  unavailable: string;
} {
  const { limited, readThrough } = kind;
  const upstreamBusy = 'this is not stored here and the upstream API budget is spent';
  const tooMany = limited
    ? `The key's per-minute budget is spent${readThrough ? `, or ${upstreamBusy}` : ''}`
    : readThrough
      ? `Nothing to serve: ${upstreamBusy}; try again later`
      : null;
  const unavailable = readThrough
    ? 'The instance is shutting down or lost its store, or the upstream API is unavailable and this is not stored here; try again'
    : 'The instance is shutting down or lost its store; try again';
  return { tooMany, unavailable };
}
