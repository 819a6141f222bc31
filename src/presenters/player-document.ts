/**
 * Player documents (REFERENCE §3.2, §3.3): the `player` resource with its recent match list, as
 * a list (`/players?filter[…]`) or alone (`/players/{id}`). Rendered straight to a string.
 */

/** What a player resource shows. */
export interface PlayerView {
  accountId: string;
  name: string;
  banType: string;
  clanId: string;
  /** Recent match ids, newest first. */
  matchIds: readonly string[];
}

const json = JSON.stringify;

/** `{"type":"match","id":…}` references, comma-separated. */
export function matchReferences(matchIds: readonly string[]): string {
  let out = '';
  for (let i = 0; i < matchIds.length; i++) {
    out += `${i === 0 ? '' : ','}{"type":"match","id":${json(matchIds[i])}}`;
  }
  return out;
}

/**
 * One player resource. `shardSpelling` is the platform shard as the client spells it (its
 * `shardId` and resource link); `baseUrl` the public base URL.
 */
export function renderPlayerResource(
  player: PlayerView,
  shardSpelling: string,
  baseUrl: string,
): string {
  const id = json(player.accountId);
  const self = json(`${baseUrl}/shards/${shardSpelling}/players/${player.accountId}`);
  return (
    `{"type":"player","id":${id},"attributes":{"name":${json(player.name)},"stats":null,` +
    `"titleId":"pubg","shardId":${json(shardSpelling)},"patchVersion":"",` +
    `"banType":${json(player.banType)},"clanId":${json(player.clanId)}},` +
    `"relationships":{"assets":{"data":[]},"matches":{"data":[${matchReferences(player.matchIds)}]}},` +
    `"links":{"self":${self},"schema":""}}`
  );
}

/** The document of a player search: `data` is always an array. */
export function renderPlayerList(
  players: readonly PlayerView[],
  shardSpelling: string,
  baseUrl: string,
  selfUrl: string,
): string {
  const resources = players.map((player) => renderPlayerResource(player, shardSpelling, baseUrl));
  return `{"data":[${resources.join(',')}],"links":{"self":${json(selfUrl)}},"meta":{}}`;
}

/** The document of one player looked up by account id. */
export function renderPlayer(
  player: PlayerView,
  shardSpelling: string,
  baseUrl: string,
  selfUrl: string,
): string {
  const resource = renderPlayerResource(player, shardSpelling, baseUrl);
  return `{"data":${resource},"links":{"self":${json(selfUrl)}},"meta":{}}`;
}
