/**
 * Finds what to request on a running service through its public API alone: the current season,
 * sample lists, the matches they name (busiest first), those matches' players and telemetry
 * files, leaderboards, tournaments and clans. Returns, per endpoint of the catalogue, the
 * candidate paths, most representative first: the first that answers 200 is the "hot" path,
 * the first `spread` that do are the "spread" list.
 */
import { STANDARD_GAME_MODES } from '../src/domain/game-modes.ts';
import { regionsOf } from '../src/domain/shards.ts';

interface Resource {
  type: string;
  id: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data?: Array<{ id: string; meta?: { shardId?: string } }> }>;
}
interface Document {
  data?: Resource | Resource[];
  included?: Resource[];
}

const PLATFORM = 'pc-b';
const enc = encodeURIComponent;

/** Candidate paths per endpoint id, and the OpenAPI path templates the service has. */
export interface Discovery {
  paths: Map<string, string[]>;
  routes: Set<string>;
}

/** `/shards/{shard}/players/{accountId}` → `/shards/{}/players/{}`. */
export function routeTemplate(openApiPath: string): string {
  return openApiPath.replace(/\{[^}]*\}/g, '{}');
}

export async function discoverPaths(
  origin: string,
  apiKey: string,
  spread: number,
): Promise<Discovery> {
  const get = async (path: string): Promise<Document | null> => {
    const response = await fetch(origin + path, {
      headers: { authorization: `Bearer ${apiKey}`, accept: 'application/vnd.api+json' },
    });
    return response.ok ? ((await response.json()) as Document) : null;
  };
  const list = (doc: Document | null): Resource[] =>
    doc?.data === undefined ? [] : Array.isArray(doc.data) ? doc.data : [doc.data];

  const openApi = (await get('/openapi.json')) as { paths?: Record<string, unknown> } | null;
  const routes = new Set(Object.keys(openApi?.paths ?? {}).map(routeTemplate));

  const seasons = list(await get(`/shards/${PLATFORM}/seasons`));
  const season = seasons.find((s) => s.attributes?.isCurrentSeason === true)?.id ?? '';

  // Matches from the newest sample list of every region, then the busiest of them first.
  const matchIds = new Set<string>();
  const samplePaths: string[] = [];
  const regions = regionsOf(PLATFORM);
  for (const region of regions) {
    samplePaths.push(`/shards/${region}/samples`);
    const sample = list(await get(`/shards/${region}/samples`))[0];
    for (const ref of sample?.relationships?.matches?.data ?? []) {
      if ((ref.meta?.shardId ?? PLATFORM) === PLATFORM) matchIds.add(ref.id);
    }
  }
  const day = 86_400_000;
  for (let back = 1; back < 14 && samplePaths.length < spread; back++) {
    const start = new Date(Math.floor(Date.now() / day) * day - back * day).toISOString();
    for (const region of regions) {
      samplePaths.push(`/shards/${region}/samples?filter[createdAt-start]=${start}`);
    }
  }
  const matches: Array<{ path: string; size: number; telemetry: string | null }> = [];
  const players = new Map<string, string>();
  const fetchMatches = async (ids: Iterable<string>): Promise<void> => {
    for (const id of ids) {
      if (matches.length >= spread) return;
      const doc = await get(`/shards/${PLATFORM}/matches/${id}`);
      if (!doc) continue;
      const included = doc.included ?? [];
      const asset = included.find((r) => r.type === 'asset')?.attributes?.URL;
      matches.push({
        path: `/shards/${PLATFORM}/matches/${id}`,
        size: included.length,
        telemetry: typeof asset === 'string' ? new URL(asset).pathname : null,
      });
      for (const resource of included) {
        const stats = resource.attributes?.stats as
          { name?: string; playerId?: string } | undefined;
        if (resource.type === 'participant' && stats?.playerId?.startsWith('account.')) {
          players.set(stats.playerId, stats.name ?? '');
        }
      }
    }
  };
  await fetchMatches(matchIds);
  const shard = `/shards/${PLATFORM}`;
  const groups = <T>(items: T[], size: number): T[][] =>
    Array.from({ length: Math.floor(items.length / size) }, (_, i) =>
      items.slice(i * size, i * size + size),
    );
  // Players of those matches: their clans, and their other matches when samples named too few.
  const clanIds = new Set<string>();
  const moreMatchIds = new Set<string>();
  for (const group of groups([...players.keys()], 10).slice(0, Math.ceil(spread / 10))) {
    for (const player of list(await get(`${shard}/players?filter[playerIds]=${group.join(',')}`))) {
      const clanId = player.attributes?.clanId;
      if (typeof clanId === 'string' && clanId !== '') clanIds.add(clanId);
      for (const ref of player.relationships?.matches?.data ?? []) {
        if (!matchIds.has(ref.id)) moreMatchIds.add(ref.id);
      }
    }
  }
  await fetchMatches(moreMatchIds);
  matches.sort((a, b) => b.size - a.size);
  const ids = [...players.keys()].slice(0, spread * 10);
  const names = ids.map((id) => players.get(id)!);

  const tournaments = list(await get('/tournaments')).map((t) => `/tournaments/${enc(t.id)}`);
  const leaderboards = ['pc-b', 'pc-a'].flatMap((platform) =>
    ['squad-fpp', ...STANDARD_GAME_MODES.filter((m) => m !== 'squad-fpp')].flatMap((mode) =>
      Array.from(
        { length: 10 },
        (_, page) => `/shards/${platform}/leaderboards/${mode}?page[number]=${page}`,
      ),
    ),
  );
  // Page 0 of every mode before later pages: the spread then covers every board.
  leaderboards.sort((a, b) => pageOf(a) - pageOf(b));

  const paths = new Map<string, string[]>([
    ['match', matches.map((m) => m.path)],
    ['leaderboard', leaderboards],
    ['status', ['/status']],
    ['healthz', ['/healthz']],
    ['samples', samplePaths],
    ['telemetry', matches.flatMap((m) => (m.telemetry ? [m.telemetry] : []))],
    ['player-name', names.map((name) => `${shard}/players?filter[playerNames]=${enc(name)}`)],
    [
      'players-10-names',
      groups(names, 10).map((g) => `${shard}/players?filter[playerNames]=${g.map(enc).join(',')}`),
    ],
    ['player-id', ids.map((id) => `${shard}/players/${id}`)],
    ['season-stats', ids.map((id) => `${shard}/players/${id}/seasons/${season}`)],
    ['lifetime-stats', ids.map((id) => `${shard}/players/${id}/seasons/lifetime`)],
    [
      'batch-stats',
      groups(ids, 10).map(
        (g) =>
          `${shard}/seasons/${season}/gameMode/squad-fpp/players?filter[playerIds]=${g.join(',')}`,
      ),
    ],
    ['seasons', ['pc-b', 'pc-a', 'console-a', 'console-b'].map((p) => `/shards/${p}/seasons`)],
    ['tournaments', ['/tournaments']],
    ['tournament', tournaments],
    ['ranked-stats', ids.map((id) => `${shard}/players/${id}/seasons/${season}/ranked`)],
    ['weapon-mastery', ids.map((id) => `${shard}/players/${id}/weapon_mastery`)],
    ['survival-mastery', ids.map((id) => `${shard}/players/${id}/survival_mastery`)],
    ['clan', [...clanIds].map((id) => `${shard}/clans/${enc(id)}`)],
  ]);
  return { paths, routes };
}

function pageOf(path: string): number {
  return Number(/page\[number\]=(\d+)/.exec(path)?.[1] ?? 0);
}
