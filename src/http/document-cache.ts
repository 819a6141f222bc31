/**
 * A cache of rendered documents bounded by the bytes they hold, so the hot set of immutable
 * documents (matches) is served without a query (DESIGN §6: bytes, not objects).
 */

/** Rough per-entry overhead (key, map slot, entry object), in bytes, so tiny entries still count. */
const ENTRY_OVERHEAD_BYTES = 256;

interface Entry<V> {
  value: V;
  bytes: number;
  /** Read since the eviction sweep last passed it. */
  referenced: boolean;
}

/**
 * Eviction is second-chance ("clock") LRU: a hit only sets a flag, and the sweep that makes
 * room gives flagged entries another round. Hits stay as cheap as a Map lookup — reordering a
 * Map on every read costs a measurable share of a served match — while entries nobody reads
 * go first, as in LRU.
 */
export class DocumentCache<V> {
  // A Map iterates in insertion order: the sweep starts at the oldest (re)inserted entry.
  private readonly entries = new Map<string, Entry<V>>();
  private usedBytes = 0;
  /** Lookups that found their key, and those that did not, since the cache was made (metrics). */
  hits = 0;
  misses = 0;

  /** @param maxBytes upper bound of the bytes held; 0 disables caching. */
  constructor(private readonly maxBytes: number) {}

  /** The value under `key`, counted as a hit or a miss. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    entry.referenced = true;
    return entry.value;
  }

  /** The value under `key`, neither counted nor marked as read. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /**
   * Stores a value that holds `bytes` bytes (the caller counts its buffers), replacing the
   * key's value, and evicts to stay within the bound. A value larger than the bound is not kept.
   */
  set(key: string, value: V, bytes: number): void {
    const size = bytes + key.length * 2 + ENTRY_OVERHEAD_BYTES;
    this.delete(key);
    if (size > this.maxBytes) return;
    while (this.usedBytes + size > this.maxBytes) this.evictOne();
    this.entries.set(key, { value, bytes: size, referenced: false });
    this.usedBytes += size;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.usedBytes -= entry.bytes;
  }

  /** Deletes every entry whose value `doomed` picks; returns how many. */
  deleteWhere(doomed: (value: V) => boolean): number {
    let deleted = 0;
    for (const [key, entry] of this.entries) {
      if (!doomed(entry.value)) continue;
      this.entries.delete(key);
      this.usedBytes -= entry.bytes;
      deleted++;
    }
    return deleted;
  }

  /** Bytes currently accounted for, overhead included. */
  get size(): number {
    return this.usedBytes;
  }

  get count(): number {
    return this.entries.size;
  }

  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      if (entry.referenced) {
        entry.referenced = false;
        this.entries.set(key, entry);
      } else {
        this.usedBytes -= entry.bytes;
        return;
      }
    }
  }
}
