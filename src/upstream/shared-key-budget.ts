/**
 * Upstream key budgets shared by every instance through Redis (REDIS_URL), so that instances
 * mirroring one upstream with the same keys never together send more than the upstream allows:
 * each take is one atomic script (shared-key-budget-scripts.ts) and each answer's
 * X-Ratelimit headers update the shared count.
 *
 * When Redis does not answer (the client's command timeout, 50 ms) or is not connected, the
 * instance counts in its own memory (KeyBudgets) — as our own rate limits do — and says so once
 * in the log; Redis is asked again a second later. A request never waits on Redis longer than
 * one command timeout, and never fails because of it.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  DEFAULT_WINDOW_MS,
  KeyBudgets,
  RESET_MARGIN_MS,
  type BudgetHeaders,
  type BudgetTake,
  type KeyLease,
  type UpstreamBudget,
} from './key-budget.ts';
import { RECORD_SCRIPT, TAKE_SCRIPT } from './shared-key-budget-scripts.ts';

/** How long the request to a key never heard from holds it, in ms (then another may go). */
const PROBE_LEASE_MS = 30_000;
/** A key's hash outlives its last use by this long, in ms (a day: no stale budget remains). */
const HASH_TTL_MS = 86_400_000;
/** How long after a failed command Redis is left alone, in ms. */
const RETRY_AFTER_FAILURE_MS = 1_000;
/** Longest wait for the first connection, in ms (later: none, memory meanwhile). */
const FIRST_CONNECT_WAIT_MS = 1_000;

interface SharedLease extends KeyLease {
  /** True when taken from Redis, so recorded there too. */
  shared: boolean;
}

export class SharedKeyBudgets implements UpstreamBudget {
  /** This instance's share of the counts (sent, refused, unspent seen by its takes). */
  readonly counts = { sent: 0, refused: 0, unspent: 0 };
  /** Where budgets are counted while Redis does not answer. */
  readonly local: KeyBudgets;
  private readonly hashes: string[];
  private readonly limits: (number | null)[];
  private retryAt = 0;
  private healthy = true;
  private connecting: Promise<void> | null = null;

  /**
   * `upstreamUrl` and each key name the Redis hash (as a digest: the keys themselves never
   * leave this process except to the upstream).
   */
  constructor(
    private readonly keys: readonly string[],
    upstreamUrl: string,
    private readonly redis: Redis,
    private readonly log: (message: string) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {
    this.local = new KeyBudgets(keys, now);
    this.hashes = keys.map(
      (key) =>
        `gamedata-upstream-budget:${createHash('sha256').update(`${upstreamUrl}\n${key}`).digest('hex').slice(0, 32)}`,
    );
    this.limits = keys.map(() => null);
    // Without a listener ioredis prints every failed reconnect as an unhandled error.
    redis.on('error', () => {});
  }

  /** 'redis' while budgets are shared, 'fallback' while this instance counts alone. */
  mode(): 'redis' | 'fallback' {
    return this.healthy && this.redis.status === 'ready' ? 'redis' : 'fallback';
  }

  async take(): Promise<BudgetTake> {
    if (!(await this.usable())) return this.takeLocal();
    try {
      const [index, waitMs, unspent] = (await this.redis.eval(
        TAKE_SCRIPT,
        this.hashes.length,
        ...this.hashes,
        this.now(),
        DEFAULT_WINDOW_MS,
        PROBE_LEASE_MS,
        HASH_TTL_MS,
      )) as [number, number, number];
      this.answered();
      this.counts.unspent += unspent;
      if (index < 0) return { waitMs };
      this.counts.sent++;
      const lease: SharedLease = { key: this.keys[index]!, index, shared: true };
      return lease;
    } catch (error) {
      this.failed(error as Error);
      return this.takeLocal();
    }
  }

  async record(lease: KeyLease, headers: BudgetHeaders | null): Promise<void> {
    if (headers?.refused) this.counts.refused++;
    if (headers?.limit != null) this.limits[lease.index] = headers.limit;
    if (!(lease as SharedLease).shared) return this.local.record(lease, headers);
    const now = this.now();
    const resetAt =
      headers?.resetInMs == null ? '' : now + Math.max(0, headers.resetInMs) + RESET_MARGIN_MS;
    try {
      await this.redis.eval(
        RECORD_SCRIPT,
        1,
        this.hashes[lease.index]!,
        now,
        headers === null ? '0' : '1',
        headers?.limit ?? '',
        headers?.remaining ?? '',
        resetAt,
        headers?.refused ? '1' : '0',
        DEFAULT_WINDOW_MS,
      );
      this.answered();
    } catch (error) {
      // The shared count stays as taken: spent, never given back — on the safe side.
      this.failed(error as Error);
    }
  }

  totalLimit(): number {
    return this.limits.reduce<number>((sum, limit) => sum + (limit ?? 0), 0);
  }

  private takeLocal(): BudgetTake {
    const taken = this.local.take();
    if (!('key' in taken)) return taken;
    this.counts.sent++;
    const lease: SharedLease = { ...taken, shared: false };
    return lease;
  }

  /** Whether to ask Redis now: connected (waiting once for the first connection) and not just failed. */
  private async usable(): Promise<boolean> {
    if (this.redis.status === 'wait') this.connecting ??= this.connectOnce();
    if (this.connecting) await this.connecting;
    if (this.redis.status !== 'ready') {
      this.down(`connection ${this.redis.status}`);
      return false;
    }
    return this.healthy || this.now() >= this.retryAt;
  }

  private async connectOnce(): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, FIRST_CONNECT_WAIT_MS);
      this.redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
      this.redis.connect().catch(() => {});
    });
  }

  private answered(): void {
    if (this.healthy) return;
    this.healthy = true;
    this.log('Redis answers again: upstream budgets are shared by every instance again');
  }

  private failed(error: Error): void {
    this.down(error.message);
  }

  private down(reason: string): void {
    this.retryAt = this.now() + RETRY_AFTER_FAILURE_MS;
    if (!this.healthy) return;
    this.healthy = false;
    this.log(
      `Redis unreachable (${reason}): upstream budgets are counted per instance until it is back`,
    );
  }
}
