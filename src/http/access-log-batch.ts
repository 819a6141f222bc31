/**
 * Where access lines go: the app logger's own destination (src/logger.ts), a batch at a time.
 * Each line is encoded into the batch's buffer as it comes, while its text is fresh in the cache;
 * gathered as text instead, a batch's hundred-odd lines were joined, measured and encoded when it
 * was handed over, long after — that walk over cold strings cost more than all the rest of the
 * access log.
 */
import { pino, type Logger } from 'pino';

/** Where lines are written, and how to hand over what is gathered now (on close and at exit). */
export interface LineBatch {
  /**
   * A line written as bytes: the buffer to write it into from `offset()`, with room for
   * `bytes` more, then `commit(end)` once written. Nothing else may be written in between.
   */
  reserve(bytes: number): Buffer;
  offset(): number;
  commit(end: number): void;
  /** Stops the timer and the exit handler; hands over what is gathered. */
  close(): void;
}

/** What is used of the logger's destination: sonic-boom, or src/logger.ts's LineDestination. */
interface Destination {
  write(data: string): unknown;
  /** Takes encoded lines as they are (the serving logger's destination). */
  writeBytes?(lines: Buffer): unknown;
  flush?(): void;
  flushSync?(): void;
}

/**
 * A batch writer to where `log` writes, or null when it writes to no stream. Lines are handed
 * over in one write every `batchBytes`; when fewer arrive, within `flushMs` (LOG_FLUSH_MS) and
 * then written at once, so no line waits longer than the logger's own lines do; and when the
 * app closes (an orderly stop) or the process exits (written synchronously then, as the logger
 * does).
 */
export function lineBatch(log: Logger, batchBytes: number, flushMs: number): LineBatch | null {
  const stream = (log as unknown as Record<symbol, Destination | undefined>)[
    pino.symbols.streamSym
  ];
  if (typeof stream?.write !== 'function') return null;
  const handOver =
    typeof stream.writeBytes === 'function'
      ? (lines: Buffer) => stream.writeBytes!(lines)
      : (lines: Buffer) => stream.write(lines.toString('utf8'));
  // A batch ends at the first line past `batchBytes`; one line more always fits after that.
  const size = batchBytes * 2;
  let bytes = Buffer.allocUnsafe(size);
  let used = 0;
  let timer: NodeJS.Timeout | null = null;
  const flush = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (used === 0) return;
    // The destination keeps the buffer until it is written: the next batch gets a new one.
    const lines = bytes.subarray(0, used);
    bytes = Buffer.allocUnsafe(size);
    used = 0;
    handOver(lines);
  };
  const flushLate = (): void => {
    flush();
    stream.flush?.();
  };
  const atExit = (): void => {
    try {
      flush();
      stream.flushSync?.();
    } catch {
      // Not open yet, or the destination is gone: nothing more can be written.
    }
  };
  const reserve = (room: number): Buffer => {
    if (used + room > bytes.length) {
      flush();
      // Longer than a whole batch can hold (a surprise): a batch of its own.
      if (room > size) bytes = Buffer.allocUnsafe(room);
    }
    return bytes;
  };
  const commit = (end: number): void => {
    used = end;
    if (used >= batchBytes) flush();
    else if (timer === null) timer = setTimeout(flushLate, flushMs).unref();
  };
  process.on('exit', atExit);
  return {
    reserve,
    offset: () => used,
    commit,
    close() {
      process.off('exit', atExit);
      flush();
    },
  };
}
