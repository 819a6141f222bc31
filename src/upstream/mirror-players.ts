/**
 * Read-through of players (by account id, by names or by ids): when the store's copy of a lookup
 * is older than UPSTREAM_PLAYER_TTL_SECONDS — or there is none — the upstream's answer is
 * fetched (one limited request, spending budget) and stored through ingest as a recording
 * (recorded-players.ts), so the route answers at once with the player as the upstream said it.
 * The matches it lists are then archived in the background through the match mirror
 * (unlimited requests, no budget), so they feed stats, samples and leaderboards here without
 * the client waiting for them. TTL bookkeeping: ttl-refresh.ts.
 *
 * If the upstream is down or the budget spent, what the store holds is served stale (the route
 * says how old, with `Age` and `Warning`); with nothing held the error is the answer.
 */
import { resolveShard } from '../domain/shards.ts';
import type { IngestDeps } from '../ingest/ingest-deps.ts';
import { IngestError } from '../ingest/ingest-error.ts';
import { ingestRecordedPlayers, playerListRecordingId } from '../ingest/recorded-players.ts';
import { deleteCursorsBefore, writeCursor } from '../store/mirror-state.ts';
import { SingleFlight } from './single-flight.ts';
import type { MatchMirror } from './mirror-matches.ts';
import { MISSING, refreshWithinTtl, type Freshness } from './ttl-refresh.ts';
import {
  UpstreamUnavailableError,
  type UpstreamAnswer,
  type UpstreamClient,
} from './upstream-client.ts';

/** How a lookup stands after a refresh was tried. */
export type PlayerFreshness = Freshness;

/** A players lookup: by `id` (one account id) or by `names` / `ids` (the filter's values). */
export interface PlayerLookup {
  /** The shard as the client spelled it (what the upstream is asked on). */
  shard: string;
  platform: string;
  by: 'id' | 'names' | 'ids';
  values: readonly string[];
}

/** Cursor names of lookups. */
const LOOKUP_PREFIX = 'players:';
/** Least time between two deletions of expired 404 lookups by one process, ms. */
const SWEEP_EVERY_MS = 60_000;
/** Matches archived at once in the background. */
const ARCHIVERS = 4;

/** The cursor that says when a lookup was last fetched. */
const cursorOf = (lookup: Pick<PlayerLookup, 'platform' | 'by' | 'values'>): string =>
  `${LOOKUP_PREFIX}${lookup.platform}:${lookup.by}:${[...lookup.values].sort().join(',')}`;

export class PlayerMirror {
  private readonly flights = new SingleFlight<Freshness>();
  private sweptAt = -Infinity;
  /** Matches waiting to be archived in the background: [shard, match id]. */
  private readonly queue: [string, string][] = [];
  private archivers = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly deps: IngestDeps,
    private readonly client: UpstreamClient,
    private readonly matches: MatchMirror,
    private readonly ttlMs: number,
    private readonly log: (message: string) => void = () => {},
  ) {}

  /** Refreshes the lookup from upstream unless the store's copy is younger than the TTL. */
  async refresh(lookup: PlayerLookup): Promise<Freshness> {
    const freshness = await refreshWithinTtl(
      this.deps,
      this.flights,
      cursorOf(lookup),
      this.ttlMs,
      () => this.fetch(lookup),
    );
    if (freshness.state === 'missing') await this.dropExpiredMissing();
    return freshness;
  }

  /**
   * Deletes the rows of 404 lookups older than the TTL (at most once a minute per process; the
   * crawl pass calls it too). Returns how many.
   */
  async dropExpiredMissing(): Promise<number> {
    const now = this.deps.clock.now();
    if (now - this.sweptAt < SWEEP_EVERY_MS) return 0;
    this.sweptAt = now;
    return deleteCursorsBefore(this.deps.store.db, LOOKUP_PREFIX, MISSING, now - this.ttlMs);
  }

  /**
   * Stores an upstream players answer (a 200) as recorded — `lookup` names the list — and
   * returns the match ids it lists, per player. The crawler's watch list records through here.
   */
  async record(
    shard: string,
    lookup: Pick<PlayerLookup, 'by' | 'values'>,
    answer: UpstreamAnswer,
  ): Promise<{ accountId: string; name: string | null; matchIds: string[] }[]> {
    const body = this.client.relink(answer.body, this.deps.config.publicBaseUrl);
    let document: unknown;
    try {
      document = JSON.parse(body.toString('utf8'));
    } catch {
      throw new UpstreamUnavailableError('the upstream sent a player document that is not JSON');
    }
    const platform = resolveShard(shard, this.deps.config.shardAliases)?.platform ?? shard;
    const now = this.deps.clock.now();
    try {
      const players = await ingestRecordedPlayers(this.deps, document, {
        raw: body,
        platform,
        recordedAt: now,
        ...(lookup.by === 'id' ? {} : { listId: playerListRecordingId(lookup.by, lookup.values) }),
      });
      // Each player is recorded on its own too: a lookup by its id is fresh as well.
      for (const { accountId } of players) {
        const cursor = cursorOf({ platform, by: 'id', values: [accountId] });
        await writeCursor(this.deps.store.db, cursor, String(now), now);
      }
      return players;
    } catch (error) {
      if (!(error instanceof IngestError)) throw error;
      this.log(`upstream players of ${shard} not recorded: ${error.message}`);
      return [];
    }
  }

  /** Archives the matches in the background (after what is queued already). */
  archive(shard: string, matchIds: readonly string[]): void {
    for (const id of matchIds) this.queue.push([shard, id]);
    while (this.archivers < ARCHIVERS && this.queue.length > 0) {
      this.archivers++;
      void this.archiveQueued();
    }
  }

  /** Resolves once no match is waiting to be archived in the background (tests, shutdown). */
  idle(): Promise<void> {
    if (this.archivers === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops what waits to be archived and resolves once the matches under way are (shutdown). */
  stop(): Promise<void> {
    this.queue.length = 0;
    return this.idle();
  }

  private async archiveQueued(): Promise<void> {
    for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) {
      try {
        await this.matches.fetch(next[0], next[1]);
      } catch (error) {
        // Left for the next lookup or crawl: a match is archived whenever it is asked again.
        this.log(`upstream match ${next[1]} not archived: ${(error as Error).message}`);
      }
    }
    if (--this.archivers === 0) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  private async fetch(lookup: PlayerLookup): Promise<'fresh' | 'missing'> {
    const shard = encodeURIComponent(lookup.shard);
    const values = lookup.values.map(encodeURIComponent).join(',');
    const path =
      lookup.by === 'id'
        ? `/shards/${shard}/players/${values}`
        : `/shards/${shard}/players?filter[${lookup.by === 'names' ? 'playerNames' : 'playerIds'}]=${values}`;
    const answer = await this.client.get(path, { limited: true });
    if (answer.status === 404) return 'missing';
    if (answer.status !== 200) {
      throw new UpstreamUnavailableError(`upstream answered ${answer.status} for a player lookup`);
    }
    const players = await this.record(lookup.shard, lookup, answer);
    this.archive(
      lookup.shard,
      players.flatMap((player) => player.matchIds),
    );
    return 'fresh';
  }
}
