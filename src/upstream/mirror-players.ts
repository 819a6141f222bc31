/**
 * Read-through of players (by account id, or by names): when the store's copy of a player is
 * older than UPSTREAM_PLAYER_TTL_SECONDS — or there is none — the upstream's player document
 * is fetched (one limited request, spending budget) and every match it lists is archived
 * through the match mirror (unlimited), so the player, its name and its match list enter the
 * store through the ingest pipeline like any match's players. When each lookup was last
 * refreshed is kept in the store (mirror_cursors), so every instance knows, and a lookup within
 * its time to live costs no upstream budget at all. A lookup the upstream answered 404 is kept
 * as `missing:<time>` just as long (the 404 is trusted for the TTL), then its row is deleted,
 * so lookups of names that never existed do not pile up in the store.
 *
 * If the upstream is down or the budget spent, what the store holds is served stale (the route
 * says how old, with `Age` and `Warning`); with nothing held the error is the answer.
 */
import type { Clock } from '../clock.ts';
import type { Store } from '../store/store.ts';
import { deleteCursorsBefore, readCursor, writeCursor } from '../store/mirror-state.ts';
import type { ApiError } from '../http/jsonapi.ts';
import { SingleFlight } from './single-flight.ts';
import type { MatchMirror } from './mirror-matches.ts';
import { UpstreamUnavailableError, type UpstreamClient } from './upstream-client.ts';
import { upstreamApiError } from './upstream-errors.ts';

/** How a lookup stands after a refresh was tried. */
export type PlayerFreshness =
  | { state: 'fresh' }
  /** The upstream knows none of them. */
  | { state: 'missing' }
  /** The upstream could not be asked: serve what is held, `ageMs` old (null: never fetched). */
  | { state: 'stale'; ageMs: number | null; error: ApiError };

/** A players lookup: by `id` (one account id) or by `names` (the filter's values). */
export interface PlayerLookup {
  /** The shard as the client spelled it (what the upstream is asked on). */
  shard: string;
  platform: string;
  by: 'id' | 'names' | 'ids';
  values: readonly string[];
}

/** Cursor names of lookups, and the value prefix of those the upstream answered 404. */
const LOOKUP_PREFIX = 'players:';
const MISSING = 'missing:';
/** Least time between two deletions of expired 404 lookups by one process, ms. */
const SWEEP_EVERY_MS = 60_000;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class PlayerMirror {
  private readonly flights = new SingleFlight<PlayerFreshness>();
  private sweptAt = -Infinity;

  constructor(
    private readonly deps: { store: Store; clock: Clock },
    private readonly client: UpstreamClient,
    private readonly matches: MatchMirror,
    private readonly ttlMs: number,
  ) {}

  /** Refreshes the lookup from upstream unless the store's copy is younger than the TTL. */
  async refresh(lookup: PlayerLookup): Promise<PlayerFreshness> {
    const cursor = `${LOOKUP_PREFIX}${lookup.platform}:${lookup.by}:${[...lookup.values].sort().join(',')}`;
    const fetchedAt = await readCursor(this.deps.store.db, cursor);
    const now = this.deps.clock.now();
    const age = fetchedAt === null ? null : now - Number(fetchedAt.replace(MISSING, ''));
    if (age !== null && age < this.ttlMs) return { state: 'fresh' };
    return this.flights.run(cursor, async () => {
      try {
        const result = await this.fetch(lookup);
        const value = result.state === 'missing' ? `${MISSING}${now}` : String(now);
        await writeCursor(this.deps.store.db, cursor, value, now);
        if (result.state === 'missing') await this.dropExpiredMissing();
        return result;
      } catch (error) {
        const answer = upstreamApiError(error);
        if (answer === null) throw error;
        return { state: 'stale', ageMs: age, error: answer };
      }
    });
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

  private async fetch(lookup: PlayerLookup): Promise<PlayerFreshness> {
    const shard = encodeURIComponent(lookup.shard);
    const values = lookup.values.map(encodeURIComponent).join(',');
    const path =
      lookup.by === 'id'
        ? `/shards/${shard}/players/${values}`
        : `/shards/${shard}/players?filter[${lookup.by === 'names' ? 'playerNames' : 'playerIds'}]=${values}`;
    const answer = await this.client.get(path, { limited: true });
    if (answer.status === 404) return { state: 'missing' };
    if (answer.status !== 200) {
      throw new UpstreamUnavailableError(`upstream answered ${answer.status} for a player lookup`);
    }
    let document: unknown;
    try {
      document = JSON.parse(answer.body.toString('utf8'));
    } catch {
      throw new UpstreamUnavailableError('the upstream sent a player document that is not JSON');
    }
    const data = isObject(document) ? document.data : undefined;
    const players = (Array.isArray(data) ? data : [data]).filter(isObject);
    const ids = players.flatMap((player) => {
      const matches = isObject(player.relationships) ? player.relationships.matches : undefined;
      const refs = isObject(matches) && Array.isArray(matches.data) ? matches.data : [];
      return refs.filter(isObject).map((ref) => String(ref.id));
    });
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < ids.length) await this.matches.fetch(lookup.shard, ids[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(4, ids.length) }, worker));
    return { state: 'fresh' };
  }
}
