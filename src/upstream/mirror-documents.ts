/**
 * Read-through of the documents this service keeps as recorded — season and lifetime stats,
 * ranked stats, weapon and survival mastery, clans (one mirror, UPSTREAM_STATS_TTL_SECONDS);
 * seasons lists, leaderboards and samples (another, UPSTREAM_LIST_TTL_SECONDS): when the store's
 * copy is older than its kind's time to live — or there is none — the upstream's document
 * is fetched (one limited request, spending budget) and stored through ingest's entry point for
 * recordings (`ingestEntity`), so the route then serves it as the upstream said it. An upstream
 * 404 is trusted for the TTL (the route answers its own 404); an upstream outage or spent
 * budget leaves what is stored to be served stale.
 */
import { recordedPlatform, resolveShard } from '../domain/shards.ts';
import type { IngestDeps } from '../ingest/ingest-deps.ts';
import { ingestEntity } from '../ingest/ingest-entity.ts';
import { ingestRecordedSeasonStatsList } from '../ingest/recorded-season-stats.ts';
import { ingestRecordedList, isRecordedListKind } from '../ingest/recorded-lists.ts';
import { IngestError } from '../ingest/ingest-error.ts';
import { deleteCursorsBefore } from '../store/mirror-state.ts';
import { SingleFlight } from './single-flight.ts';
import { MISSING, refreshWithinTtl, type Freshness } from './ttl-refresh.ts';
import {
  UpstreamUnavailableError,
  type UpstreamClient,
  type UpstreamRequestOptions,
} from './upstream-client.ts';

/** A recorded document asked for: its kind (the JSON:API type) and where upstream has it. */
export interface RecordedLookup {
  kind:
    | 'playerSeason'
    | 'rankedplayerstats'
    | 'weaponMasterySummary'
    | 'survivalMasterySummary'
    | 'clan'
    /** A batch season stats answer (a list of `playerSeason`), kept under its lookup. */
    | 'playerSeasonList'
    /** A platform's seasons, a leaderboard page, a sample (recorded-lists.ts). */
    | 'seasonList'
    | 'leaderboard'
    | 'sample';
  /** The shard as the client spelled it (what the upstream is asked on). */
  shard: string;
  /**
   * The resource's key within its kind (`<accountId>:<seasonId>`, an account or clan id; for
   * the list kinds the shard and the query, as the route words it).
   */
  id: string;
  /** The upstream path, starting `/shards/…` (with the query the upstream needs, if any). */
  path: string;
}

/** Cursor name prefix of the stats kinds; the list kinds' mirror has its own (its own TTL). */
export const RECORDED_CURSOR_PREFIX = 'recorded:';
/** Cursor name prefix of seasons lists, leaderboards and samples. */
export const LIST_CURSOR_PREFIX = 'recorded-list:';

export class DocumentMirror {
  private readonly flights = new SingleFlight<Freshness>();
  /** Recordings stored new or changed so far (the crawl's summary counts them). */
  stored = 0;

  constructor(
    private readonly deps: IngestDeps,
    private readonly client: UpstreamClient,
    /** Time to live of every recorded kind, ms. */
    private readonly ttlMs: number,
    private readonly log: (message: string) => void = () => {},
    /** Names this mirror's cursors, so each sweeps its own 404s by its own TTL. */
    private readonly cursorPrefix: string = RECORDED_CURSOR_PREFIX,
  ) {}

  /**
   * Refreshes the document from upstream unless the store's copy is younger than the TTL;
   * `request` lets the crawler wait for budget (the routes never wait).
   */
  refresh(
    lookup: RecordedLookup,
    request: UpstreamRequestOptions = { limited: true },
  ): Promise<Freshness> {
    const shard = resolveShard(lookup.shard, this.deps.config.shardAliases, { combined: true });
    const platform = shard === null ? lookup.shard : recordedPlatform(shard);
    const cursor = `${this.cursorPrefix}${lookup.kind}:${platform}:${lookup.id}`;
    return refreshWithinTtl(this.deps, this.flights, cursor, this.ttlMs, () =>
      this.fetch(lookup, platform, request),
    );
  }

  /** Deletes the rows of 404 lookups older than the TTL (the crawl pass calls it). */
  dropExpiredMissing(): Promise<number> {
    const before = this.deps.clock.now() - this.ttlMs;
    return deleteCursorsBefore(this.deps.store.db, this.cursorPrefix, MISSING, before);
  }

  private async fetch(
    lookup: RecordedLookup,
    platform: string,
    request: UpstreamRequestOptions,
  ): Promise<'fresh' | 'missing'> {
    const answer = await this.client.get(lookup.path, { ...request, limited: true });
    if (answer.status === 404) return 'missing';
    if (answer.status !== 200) {
      throw new UpstreamUnavailableError(`upstream answered ${answer.status} for ${lookup.path}`);
    }
    const body = this.client.relink(answer.body, this.deps.config.publicBaseUrl);
    let document: unknown;
    try {
      document = JSON.parse(body.toString('utf8'));
    } catch {
      throw new UpstreamUnavailableError(`the upstream sent ${lookup.path} not as JSON`);
    }
    const data = (document as { data?: { type?: unknown } } | null)?.data;
    const listOf = lookup.kind === 'seasonList' ? 'seasonList' : 'playerSeasonList';
    const type = Array.isArray(data) ? listOf : data?.type;
    if (type !== lookup.kind) {
      this.log(
        `upstream ${lookup.path}: a ${String(type)} document, not ${lookup.kind}; not stored`,
      );
      return 'missing';
    }
    try {
      const options = { raw: body, platform, recordedAt: this.deps.clock.now() };
      const { kind, id: listId } = lookup;
      const result =
        kind === 'playerSeasonList'
          ? await ingestRecordedSeasonStatsList(this.deps, document, { ...options, listId })
          : isRecordedListKind(kind)
            ? await ingestRecordedList(this.deps, document, { ...options, kind, listId })
            : await ingestEntity(this.deps, document, options);
      if (result.status !== 'duplicate') this.stored++;
    } catch (error) {
      if (!(error instanceof IngestError)) throw error;
      // Refused (a season this service does not know …): what the store holds is served.
      this.log(`upstream ${lookup.path} not recorded: ${error.message}`);
    }
    return 'fresh';
  }
}
