/**
 * The change feed's reader: each serving process runs one. Every half second it reads the
 * changes committed since it last looked (src/store/changes.ts) and calls, per kind, the
 * handlers subscribed to it — so a cache anywhere in the process can drop what another process
 * (or the CLI) changed, within about a second on every instance sharing the database.
 *
 *     const feed = createChangeFeed(store, { clock, log });
 *     feed.subscribe('api_key', (ids) => …drop those ids, or everything when ids === 'all'…);
 *     await feed.start();
 *     // a writer, in its transaction:  await announceChanges(trx, 'api_key', [id], now);
 *     // then, in a serving process, after the commit:  await feed.poll();  (effective at once)
 *
 * Handlers must be quick and idempotent (drop, don't rebuild): a change can be delivered twice,
 * and `'all'` means changes may have been missed — after a start, or after the reader fell
 * further behind than the rows are kept — so everything of that kind must go. A failing read
 * (the database is down) is logged once, retried every interval, and never thrown.
 */
import type { Clock } from '../clock.ts';
import type { Store } from './store.ts';
import { changesAfter, latestChangeSeq, pruneChanges, type Change } from './changes.ts';
import { SILENT_STORE_LOG, describeStoreError, type StoreLog } from './store-errors.ts';
import { writeWithoutBlocking } from './sqlite/lock-wait.ts';

/** The keys of changed things of one kind, or 'all' when changes may have been missed. */
export type ChangeHandler = (keys: readonly string[] | 'all') => void;

export interface ChangeFeed {
  /** Calls `handler` for each batch of changes of `kind` from now on; returns the unsubscribe. */
  subscribe(kind: string, handler: ChangeHandler): () => void;
  /** Reads and delivers everything committed before the call; never rejects. */
  poll(): Promise<void>;
  /** Learns where the feed stands, then polls every interval. */
  start(): Promise<void>;
  /** Stops polling and waits for a poll under way. */
  stop(): Promise<void>;
}

export interface ChangeFeedOptions {
  clock: Clock;
  log?: StoreLog;
  /** Between two polls, ms (default 500). */
  intervalMs?: number;
  /** How long announced rows are kept before pruning, ms (default 5 minutes). */
  keepMs?: number;
  /** Runs `tick` every `ms` until the returned function is called (default: an unref'd setInterval). */
  every?: (ms: number, tick: () => void) => () => void;
}

const BATCH = 1_000;
const PRUNE_EVERY_MS = 60_000;

const unrefInterval = (ms: number, tick: () => void): (() => void) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

export function createChangeFeed(store: Store, options: ChangeFeedOptions): ChangeFeed {
  const { clock } = options;
  const log = options.log ?? SILENT_STORE_LOG;
  const intervalMs = options.intervalMs ?? 500;
  const keepMs = options.keepMs ?? 300_000;
  const handlers = new Map<string, Set<ChangeHandler>>();
  /** The last seq delivered; null until known (then everything counts as changed). */
  let cursor: number | null = null;
  let nextPruneAt = 0;
  let failing = false;
  let cancel: (() => void) | null = null;
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;

  function call(handler: ChangeHandler, keys: readonly string[] | 'all'): void {
    try {
      handler(keys);
    } catch (error) {
      log.warn(`change feed subscriber failed: ${describeStoreError(error)}`);
    }
  }

  function deliverAll(): void {
    for (const set of handlers.values()) for (const handler of set) call(handler, 'all');
  }

  function deliver(changes: readonly Change[]): void {
    const byKind = new Map<string, string[]>();
    for (const change of changes) {
      const keys = byKind.get(change.kind);
      if (keys) keys.push(change.key);
      else byKind.set(change.kind, [change.key]);
    }
    for (const [kind, keys] of byKind) {
      for (const handler of handlers.get(kind) ?? []) call(handler, keys);
    }
  }

  async function readOnce(): Promise<void> {
    // The head first: every change up to it has committed, so a gap below it means pruned rows.
    const head = await latestChangeSeq(store.db);
    if (cursor === null || head < cursor) {
      cursor = head;
      deliverAll();
    }
    for (;;) {
      const changes = await changesAfter(store.db, cursor, BATCH);
      const first = changes[0]?.seq ?? head + 1;
      if (first > cursor + 1 && head > cursor) deliverAll();
      if (changes.length === 0) {
        cursor = Math.max(cursor, head);
        break;
      }
      deliver(changes);
      cursor = changes[changes.length - 1]!.seq;
      if (changes.length < BATCH) break;
    }
    const now = clock.now();
    if (now >= nextPruneAt) {
      nextPruneAt = now + PRUNE_EVERY_MS;
      // The feed reads in the serving thread: a job's lock is waited for without blocking it.
      await writeWithoutBlocking(store, (db) => pruneChanges(db, now - keepMs));
    }
  }

  async function pollOnce(): Promise<void> {
    try {
      await readOnce();
      if (failing) log.info('change feed: reading changes again');
      failing = false;
    } catch (error) {
      if (!failing) {
        log.warn(
          `change feed: cannot read changes (${describeStoreError(error)}); retrying every ${intervalMs} ms`,
        );
      }
      failing = true;
    }
  }

  function poll(): Promise<void> {
    if (running === null) {
      running = pollOnce().finally(() => {
        running = null;
      });
      return running;
    }
    // The poll under way may have read before the caller's commit: one more follows it.
    queued ??= running.then(() => {
      queued = null;
      return poll();
    });
    return queued;
  }

  return {
    subscribe(kind, handler) {
      let set = handlers.get(kind);
      if (!set) handlers.set(kind, (set = new Set()));
      set.add(handler);
      return () => set.delete(handler);
    },
    poll,
    async start() {
      if (cancel !== null) return;
      await poll();
      cancel = (options.every ?? unrefInterval)(intervalMs, () => void poll());
    },
    async stop() {
      cancel?.();
      cancel = null;
      await queued;
      await running;
    },
  };
}
