/**
 * Messages over a byte stream — the socket between `serve` and its ingest processes
 * (prepare-process.ts): a header, any value the structured clone algorithm takes (v8.serialize),
 * followed by buffers sent as they are. A posted match's 2 MB of JSON then costs the sender the
 * kernel's copy and no other: serialized inside the header, the same bytes cost the serving thread
 * three times as much CPU (3.4 ms against 1.0 a 2.2 MB buffer, a loop of 20 on this machine).
 *
 * A frame: the header's length and the number of buffers (u32 LE each), every buffer's length
 * (u32 LE), the header, then the buffers.
 */
import type { Readable, Writable } from 'node:stream';
import v8 from 'node:v8';
import type { ReusableBuffers } from './reusable-buffers.ts';

/** One message: its header and the buffers sent after it. */
export interface Frame<T> {
  header: T;
  buffers: Buffer[];
}

/**
 * Writes one frame. The buffers are not copied: the stream queues them until the kernel takes
 * them, so they must not change meanwhile (the caller hands them over).
 */
export function writeFrame(stream: Writable, header: unknown, buffers: Uint8Array[] = []): void {
  const head = v8.serialize(header);
  const prefix = Buffer.allocUnsafe(8 + 4 * buffers.length);
  prefix.writeUInt32LE(head.length, 0);
  prefix.writeUInt32LE(buffers.length, 4);
  buffers.forEach((buffer, i) => prefix.writeUInt32LE(buffer.byteLength, 8 + 4 * i));
  stream.cork();
  stream.write(prefix);
  stream.write(head);
  for (const buffer of buffers) stream.write(buffer);
  stream.uncork();
}

/**
 * Calls `onFrame` with every frame `stream` brings, in order. A stream that ends in the middle
 * of a frame has lost it; `onFrame` is not called for it. A frame's buffer that spans chunks is
 * copied into one of `into` when given (reusable-buffers.ts), else into a new one.
 */
export function readFrames<T>(
  stream: Readable,
  onFrame: (frame: Frame<T>) => void,
  into?: ReusableBuffers,
): void {
  const bytes = new ByteQueue();
  // What the frame being read still needs: its prefix, its buffers' lengths, its header, its
  // buffers, one step at a time.
  let step: 'prefix' | 'lengths' | 'header' | 'buffers' = 'prefix';
  let headLength = 0;
  let lengths: number[] = [];
  let header: T | undefined;
  let buffers: Buffer[] = [];

  stream.on('data', (chunk: Buffer) => {
    bytes.push(chunk);
    for (;;) {
      if (step === 'prefix') {
        if (bytes.length < 8) return;
        const prefix = bytes.take(8);
        headLength = prefix.readUInt32LE(0);
        lengths = new Array<number>(prefix.readUInt32LE(4)).fill(0);
        step = 'lengths';
      }
      if (step === 'lengths') {
        if (bytes.length < 4 * lengths.length) return;
        const listed = bytes.take(4 * lengths.length);
        lengths = lengths.map((_, i) => listed.readUInt32LE(4 * i));
        step = 'header';
      }
      if (step === 'header') {
        if (bytes.length < headLength) return;
        header = v8.deserialize(bytes.take(headLength)) as T;
        buffers = [];
        step = 'buffers';
      }
      while (buffers.length < lengths.length) {
        const length = lengths[buffers.length]!;
        if (bytes.length < length) return;
        buffers.push(bytes.take(length, into));
      }
      step = 'prefix';
      onFrame({ header: header as T, buffers });
    }
  });
}

/** Bytes received and not yet taken, as the chunks they came in. */
class ByteQueue {
  private chunks: Buffer[] = [];
  length = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /**
   * The next `n` bytes (n ≤ length): a view of the first chunk when it holds them all, else
   * copied into a buffer of `into` or a new one.
   */
  take(n: number, into?: ReusableBuffers): Buffer {
    this.length -= n;
    const first = this.chunks[0];
    if (first !== undefined && first.length >= n) {
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
      return first.subarray(0, n);
    }
    const taken = into?.take(n) ?? Buffer.allocUnsafeSlow(n);
    let filled = 0;
    while (filled < n) {
      const chunk = this.chunks[0]!;
      const part = Math.min(chunk.length, n - filled);
      chunk.copy(taken, filled, 0, part);
      filled += part;
      if (part === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(part);
    }
    return taken;
  }
}
