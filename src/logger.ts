/**
 * The serving process's logger: pino JSON lines on stdout, buffered. A write per line (pino's
 * default) costs a system call per request once the access log is on — the largest single cost
 * of a cached answer. Lines are gathered until LOG_BUFFER_BYTES are waiting or LOG_FLUSH_MS
 * (config, 100 by default) have passed, then written asynchronously in one call. What is still buffered is written
 * before the process exits: `flush()` on the orderly stop, and synchronously on any other exit.
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
 * Bytes of lines gathered before a write: about 150 access lines. Each write is a system call
 * on a thread-pool thread, which on a busy core costs as much as tens of cached answers.
 */
export const LOG_BUFFER_BYTES = 32_768;
/** Largest single write (sonic-boom needs it above the buffer). */
const LOG_MAX_WRITE_BYTES = 65_536;
export interface ServingLogger {
  log: Logger;
  /** Resolves once every line logged so far is written. */
  flush(): Promise<void>;
}

/** Creates the logger of `serve`, writing to stdout (file descriptor 1). */
export function createServingLogger(
  config: Pick<Config, 'logLevel' | 'logFlushMs'>,
): ServingLogger {
  const destination = pino.destination({
    dest: 1,
    sync: false,
    minLength: LOG_BUFFER_BYTES,
    maxWrite: LOG_MAX_WRITE_BYTES,
    periodicFlush: config.logFlushMs,
  });
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
