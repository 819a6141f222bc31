/**
 * One crawl pass of the upstream: for each shard its sample (one limited request), then every
 * sampled match with its telemetry (unlimited), then the watch list — each watched player's
 * record (one limited request per ten names of a shard) and the matches it lists. Matches go
 * through the read-through fetcher, so a match is stored once and one already held costs a
 * single indexed read, no request. After a shard's sample is complete its id is the shard's
 * cursor: a pass that meets the same sample again skips it, and a pass killed part-way repeats
 * only the sample request and the matches it was fetching.
 */
import type { Clock } from '../clock.ts';
import { PLATFORMS } from '../domain/shards.ts';
import type { Store } from '../store/store.ts';
import {
  listWatchedPlayers,
  markWatchedRefreshed,
  readCursor,
  writeCursor,
  type WatchedPlayer,
} from '../store/mirror-state.ts';
import type { Mirror } from './mirror.ts';
import type { MirroredMatch } from './mirror-matches.ts';
import { UpstreamUnavailableError } from './upstream-client.ts';
import { isObject, type Json } from '../domain/json-object.ts';

export interface CrawlOptions {
  /** Shards whose samples are walked, as spelled to the upstream. */
  shards: readonly string[];
  signal?: AbortSignal;
  /** Matches fetched at the same time. */
  concurrency?: number;
  /** Longest wait for upstream budget before a limited request, ms. */
  maxBudgetWaitMs?: number;
  /** Told of the matches found and of each one handled (progress output). */
  progress?: { found(count: number): void; done(result: MirroredMatch): void };
  log?: (message: string) => void;
}

/** What a pass did; `ms` is its duration. */
export interface CrawlSummary {
  samples: number;
  skippedSamples: number;
  watched: number;
  /** Watched players' stats and mastery recordings stored (new or changed). */
  recordings: number;
  matches: Record<MirroredMatch, number>;
  ms: number;
}

/** A match a document references, and the shard to ask for it on. */
interface MatchRef {
  id: string;
  shard: string;
}

/** Every platform that has samples (tournaments have none): MIRROR_SHARDS' default. */
export const DEFAULT_CRAWL_SHARDS: readonly string[] = PLATFORMS.filter((p) => p !== 'tournament');

/** Names of a players filter per request (the spec's maximum). */
const NAMES_PER_REQUEST = 10;

/** Runs one pass (see the file comment); throws when the upstream fails part-way. */
export async function crawlUpstream(
  deps: { store: Store; clock: Clock },
  mirror: Mirror,
  options: CrawlOptions,
): Promise<CrawlSummary> {
  const started = Date.now();
  await mirror.players.dropExpiredMissing();
  await mirror.documents.dropExpiredMissing();
  await mirror.lists.dropExpiredMissing();
  const summary: CrawlSummary = {
    samples: 0,
    skippedSamples: 0,
    watched: 0,
    recordings: 0,
    matches: { stored: 0, held: 0, missing: 0 },
    ms: 0,
  };
  const limited = {
    limited: true,
    maxWaitMs: options.maxBudgetWaitMs ?? 10 * 60_000,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const fetchAll = async (refs: MatchRef[]): Promise<void> => {
    options.progress?.found(refs.length);
    await inParallel(refs, options.concurrency ?? 4, async (ref) => {
      const result = await mirror.matches.fetch(ref.shard, ref.id, options.signal);
      summary.matches[result]++;
      options.progress?.done(result);
    });
  };

  for (const shard of options.shards) {
    options.signal?.throwIfAborted();
    const answer = await mirror.client.get(`/shards/${encodeURIComponent(shard)}/samples`, limited);
    if (answer.status !== 200) {
      options.log?.(`upstream sample of ${shard}: answered ${answer.status}, skipped`);
      continue;
    }
    const sample = parseJson(answer.body);
    const sampleId = isObject(sample.data) ? String(sample.data.id) : '';
    const cursor = `samples:${shard}`;
    if (sampleId !== '' && (await readCursor(deps.store.db, cursor)) === sampleId) {
      summary.skippedSamples++;
      continue;
    }
    await fetchAll(matchRefs(sample.data, shard));
    if (sampleId !== '') await writeCursor(deps.store.db, cursor, sampleId, deps.clock.now());
    summary.samples++;
  }

  const watched = await listWatchedPlayers(deps.store.db);
  const byShard = new Map<string, WatchedPlayer[]>();
  for (const player of watched)
    byShard.set(player.shard, [...(byShard.get(player.shard) ?? []), player]);
  for (const [shard, players] of byShard) {
    for (let i = 0; i < players.length; i += NAMES_PER_REQUEST) {
      options.signal?.throwIfAborted();
      const batch = players.slice(i, i + NAMES_PER_REQUEST);
      const names = batch.map((player) => encodeURIComponent(player.name)).join(',');
      const path = `/shards/${encodeURIComponent(shard)}/players?filter[playerNames]=${names}`;
      const answer = await mirror.client.get(path, limited);
      if (answer.status === 404) continue; // none of them exists (any more)
      if (answer.status !== 200) {
        throw new UpstreamUnavailableError(`upstream answered ${answer.status} for ${path}`);
      }
      // Stored as recorded: a watched player is served as the upstream last said.
      await mirror.players.record(shard, { by: 'names', values: batch.map((p) => p.name) }, answer);
      const found = parseJson(answer.body).data;
      for (const player of Array.isArray(found) ? found.filter(isObject) : []) {
        const name = isObject(player.attributes) ? player.attributes.name : undefined;
        await fetchAll(matchRefs(player, shard));
        const entry = batch.find((p) => p.name === name);
        summary.recordings += await mirror.recordings.refresh(shard, String(player.id), limited);
        if (entry)
          await markWatchedRefreshed(deps.store.db, entry, String(player.id), deps.clock.now());
        summary.watched++;
      }
    }
  }
  summary.ms = Date.now() - started;
  return summary;
}

/** The matches a sample or a player names in `relationships.matches.data`. */
function matchRefs(resource: unknown, shard: string): MatchRef[] {
  if (!isObject(resource) || !isObject(resource.relationships)) return [];
  const matches = resource.relationships.matches;
  const data = isObject(matches) && Array.isArray(matches.data) ? matches.data : [];
  return data.filter(isObject).map((ref) => {
    const meta = isObject(ref.meta) ? ref.meta : {};
    return { id: String(ref.id), shard: typeof meta.shardId === 'string' ? meta.shardId : shard };
  });
}

function parseJson(body: Buffer): Json {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return isObject(value) ? value : {};
  } catch {
    throw new UpstreamUnavailableError('the upstream sent a document that is not JSON');
  }
}

/** Runs `work` over `items`, at most `limit` at a time; the first failure stops the rest. */
async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** One line saying what a pass did, with throughput and the upstream budget spent so far. */
export function describeCrawl(summary: CrawlSummary, mirror: Mirror): string {
  const { matches } = summary;
  const seconds = summary.ms / 1000;
  const total = matches.stored + matches.held + matches.missing;
  const budget = mirror.client.budgets.counts;
  return (
    `${summary.samples} samples (${summary.skippedSamples} done before), ` +
    `${summary.watched} watched players (${summary.recordings} ranked/mastery recordings), ${total} matches: ${matches.stored} stored, ` +
    `${matches.held} held already, ${matches.missing} missing upstream, in ${seconds.toFixed(1)} s ` +
    `(${(matches.stored / Math.max(seconds, 0.001)).toFixed(1)} matches/s); ` +
    `${budget.sent} limited upstream requests, ${budget.refused} refused`
  );
}
