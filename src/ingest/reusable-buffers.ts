/**
 * Buffers kept for the next body of about the same size. Filling a fresh 2 MB buffer costs its
 * some 540 pages' first-touch faults — 2.2 ms on the machine measured (a VM, about 4 µs a
 * fault), against 0.04 ms to fill one filled before — and a posted match's body is filled
 * twice: by the serving thread as it arrives, and by the worker process as it reads it from
 * the socket. Where the bytes are done with once the worker's outcome is in, the buffer is
 * given back and the next body of that size or less lands in it.
 *
 * A buffer taken here is a view of a larger one (sizes are rounded up to MiB), so it cannot be
 * moved to a worker thread whole: only a pool that copies its tasks' bytes gets these.
 */

/** Kept buffers; `take` one, `give` it back when nothing refers to its bytes any more. */
export interface ReusableBuffers {
  /** `size` bytes, in a kept buffer large enough or a new one. */
  take(size: number): Buffer;
  /**
   * Gives the buffer under `bytes` back for a later `take`. Nothing may read or write those
   * bytes afterwards. A buffer not taken here, or given back already, is ignored.
   */
  give(bytes: Uint8Array): void;
}

const MIB = 1_048_576;

/**
 * At most `keep` buffers of at most `maxBytes` each are kept; a body larger than that gets a
 * buffer of its own, as it would without them.
 */
export function reusableBuffers(keep: number, maxBytes: number): ReusableBuffers {
  // Out with a taker now: only those can come back, once each.
  const taken = new WeakSet<ArrayBuffer>();
  const free: ArrayBuffer[] = [];
  return {
    take(size) {
      if (size > maxBytes) return Buffer.allocUnsafeSlow(size);
      let best = -1;
      free.forEach((buffer, i) => {
        if (buffer.byteLength >= size && (best < 0 || buffer.byteLength < free[best]!.byteLength)) {
          best = i;
        }
      });
      const buffer =
        best >= 0
          ? free.splice(best, 1)[0]!
          : new ArrayBuffer(Math.min(maxBytes, Math.ceil(Math.max(size, 1) / MIB) * MIB));
      taken.add(buffer);
      return Buffer.from(buffer, 0, size);
    },
    give(bytes) {
      const { buffer } = bytes;
      if (!(buffer instanceof ArrayBuffer) || !taken.has(buffer)) return;
      taken.delete(buffer);
      if (free.length < keep) free.push(buffer);
    },
  };
}
