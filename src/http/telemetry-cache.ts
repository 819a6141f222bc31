/**
 * Hot telemetry files kept in memory, gzip bytes as stored, within a byte budget
 * (`TELEMETRY_CACHE_MB`). A file enters the cache as a side effect of the first request that
 * streams it from the blob store to its end: nothing is read twice, and a cold file is still
 * streamed. A cached file is answered without a query and without the blob store.
 *
 * A telemetry file never changes once attached (its ETag names the asset), so an entry only
 * has to go when its match leaves the retention window: every entry carries that moment and a
 * lookup past it drops the entry — the retention purge deletes nothing younger.
 */
import { Transform } from 'node:stream';
import { DocumentCache } from './document-cache.ts';

/** A telemetry file served from memory, with what its URL must say to name it. */
export interface CachedTelemetry {
  /** The file as stored (gzip). */
  gzip: Buffer;
  /** The asset's platform: the URL's shard must resolve to it. */
  platform: string;
  /** The asset's createdAt (epoch ms): the URL's date path. */
  assetCreatedAt: number;
  /** The match's createdAt + retention (epoch ms; Infinity when kept forever). */
  expiresAt: number;
}

export class TelemetryCache {
  private readonly files: DocumentCache<CachedTelemetry>;

  /** @param maxBytes budget of the gzip bytes held, overhead included; 0 disables the cache. */
  constructor(private readonly maxBytes: number) {
    this.files = new DocumentCache(maxBytes);
  }

  /** The cache's entries, for the metrics that watch hits and bytes. */
  get documents(): DocumentCache<CachedTelemetry> {
    return this.files;
  }

  /** Whether `assetId` has an entry, current or not, without counting a lookup. */
  has(assetId: string): boolean {
    return this.files.peek(assetId) !== undefined;
  }

  /** The file of `assetId` while it is cached and its match is in retention at `now` (epoch ms). */
  get(assetId: string, now: number): CachedTelemetry | undefined {
    const file = this.files.get(assetId);
    if (file !== undefined && now > file.expiresAt) {
      this.files.delete(assetId);
      return undefined;
    }
    return file;
  }

  /**
   * A pass-through stage for the stream of `assetId`'s file as it is sent: it caches what went
   * through once the stream has ended with exactly `size` bytes. A file larger than the budget,
   * or a stream that fails or is cut, is not kept. Returns null when the file is not to be
   * cached (too large, or cached meanwhile): send the blob's stream as it is then.
   */
  tap(size: number, assetId: string, facts: Omit<CachedTelemetry, 'gzip'>): Transform | null {
    if (size > this.maxBytes || this.files.peek(assetId) !== undefined) return null;
    const chunks: Buffer[] = [];
    let received = 0;
    const files = this.files;
    return new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        received += chunk.length;
        callback(null, chunk);
      },
      flush(callback) {
        if (received === size) {
          files.set(assetId, { ...facts, gzip: Buffer.concat(chunks, size) }, size);
        }
        callback();
      },
    });
  }
}
