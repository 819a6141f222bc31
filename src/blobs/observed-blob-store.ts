/**
 * A BlobStore that reports its failures (for metrics) and otherwise behaves exactly like the
 * store it wraps: every result and every error still reaches the caller.
 */
import type { BlobStore } from './blob-store.ts';

export type BlobOperation = 'put' | 'get' | 'delete';

/** Called once per failed operation; must not throw. */
export type BlobFailureListener = (operation: BlobOperation) => void;

/**
 * Wraps `inner` so that each failed operation, and each read stream that fails part-way, is
 * reported to `onFailure` before the error goes on to the caller. Members other than the three
 * operations are inherited from `inner` unchanged.
 */
export function observedBlobStore(inner: BlobStore, onFailure: BlobFailureListener): BlobStore {
  const observed: Pick<BlobStore, BlobOperation> = {
    async put(key, bytes) {
      try {
        await inner.put(key, bytes);
      } catch (error) {
        onFailure('put');
        throw error;
      }
    },
    async get(key) {
      let blob: Awaited<ReturnType<BlobStore['get']>>;
      try {
        blob = await inner.get(key);
      } catch (error) {
        onFailure('get');
        throw error;
      }
      blob?.stream.once('error', () => onFailure('get'));
      return blob;
    },
    async delete(key) {
      try {
        await inner.delete(key);
      } catch (error) {
        onFailure('delete');
        throw error;
      }
    },
  };
  return Object.assign(Object.create(inner) as BlobStore, observed);
}
