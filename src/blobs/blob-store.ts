/**
 * Where telemetry files live. Keys are relative paths (`telemetry/pc-b/2026/11/20/<asset>.json.gz`);
 * contents are stored as given (gzip bytes) and never change once written.
 */
import type { Readable } from 'node:stream';

export interface BlobStore {
  /** Stores bytes under a key, replacing nothing that exists (same key = same content). */
  put(key: string, bytes: Buffer): Promise<void>;
  /** A stream of the stored bytes with their size, or null when the key is absent. */
  get(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** Removes a key; absent keys are fine. */
  delete(key: string): Promise<void>;
}
