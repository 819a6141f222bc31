/**
 * The serving process's logger: pino JSON lines on stdout, buffered. A write per line (pino's
 * default) costs a system call per request once the access log is on — the largest single cost
 * of a cached answer. Lines are gathered until LOG_BUFFER_BYTES are waiting or LOG_FLUSH_MS
 * (config, 100 by default) have passed, then written asynchronously in one call. What is still
 * buffered is written before the process exits: `flush()` on the orderly stop, and
 * synchronously on any other exit.
 *
 * The destination (sonic-boom) takes bytes: the access log hands it whole buffers of lines it
 * encoded as they came (src/http/access-log-batch.ts), which it writes as they are. Given text,
 * sonic-boom measures, encodes and re-encodes it on every write — more than the lines' own cost.
 * pino's own lines, a few per minute, are encoded one by one on their way in.
 */
import { pino, type Logger } from 'pino';
import type { Config } from './config.ts';

/** Never written to a log line, whatever object is logged. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  // Upstream keys, should a config or an upstream request ever be logged whole.
  'upstream.keys',
  'config.upstream.keys',
];

/**
 * Bytes of lines gathered before a write: about 150 access lines. Each write is a system call,
 * which on a busy core costs as much as tens of cached answers.
 */
export const LOG_BUFFER_BYTES = 32_768;
/** Largest single write (sonic-boom needs it above the buffer). */
const LOG_MAX_WRITE_BYTES = 65_536;

/** The part of a bytes-mode sonic-boom used here. */
interface ByteStream {
  write(bytes: Buffer): boolean;
  flush(callback?: (error?: Error) => void): void;
  flushSync(): void;
}

/**
 * What pino writes its lines to: text, handed to the bytes destination encoded. `writeBytes`
 * takes lines already encoded (complete lines, never reused by the caller once handed over).
 */
export class LineDestination {
  constructor(private readonly bytes: ByteStream) {}

  write(line: string): boolean {
    return this.bytes.write(Buffer.from(line));
  }

  writeBytes(lines: Buffer): boolean {
    return this.bytes.write(lines);
  }

  flush(callback?: (error?: Error) => void): void {
    this.bytes.flush(callback);
  }

  flushSync(): void {
    this.bytes.flushSync();
  }
}

export interface ServingLogger {
  log: Logger;
  /** Resolves once every line logged so far is written. */
  flush(): Promise<void>;
}

/** Creates the logger of `serve`, writing to stdout (file descriptor 1). */
export function createServingLogger(
  config: Pick<Config, 'logLevel' | 'logFlushMs'>,
): ServingLogger {
  // pino's own destination (broken pipes ignored, flushed at exit), in sonic-boom's bytes mode.
  const bytes = pino.destination({
    dest: 1,
    sync: false,
    minLength: LOG_BUFFER_BYTES,
    maxWrite: LOG_MAX_WRITE_BYTES,
    periodicFlush: config.logFlushMs,
    contentMode: 'buffer',
  }) as unknown as ByteStream;
  const destination = new LineDestination(bytes);
  const log = pino({ level: config.logLevel, redact: REDACTED_PATHS }, destination);
  process.on('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // Not open yet, or stdout is gone: nothing more can be written.
    }
  });
  return {
    log,
    flush: () =>
      new Promise((resolve) => {
        log.flush(() => resolve());
      }),
  };
}
