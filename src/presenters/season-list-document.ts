/**
 * The season list document (REFERENCE §3.4): a platform's seasons, oldest first, exactly one of
 * them current. Rendered once per platform and shard spelling, then served as bytes.
 */

export interface SeasonView {
  id: string;
  isOffseason: boolean;
}

/** The season list; `currentId` is the one season flagged `isCurrentSeason` (null: none). */
export function renderSeasonList(
  seasons: readonly SeasonView[],
  currentId: string | null,
  selfUrl: string,
): string {
  const resources = seasons.map(
    (season) =>
      `{"type":"season","id":${JSON.stringify(season.id)},"attributes":{` +
      `"isCurrentSeason":${season.id === currentId},"isOffseason":${season.isOffseason}}}`,
  );
  return `{"data":[${resources.join(',')}],"links":{"self":${JSON.stringify(selfUrl)}},"meta":{}}`;
}
