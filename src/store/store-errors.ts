/**
 * Telling "the database is not there right now" apart from every other failure. Such errors are
 * not bugs and not the client's fault: the HTTP layer answers them with 503 and Retry-After, the
 * readiness probe reports them, jobs fail that run and try again later, and opening the store
 * at start-up retries them. Anything else stays an error of its own (a 500, a failed job).
 */

/**
 * The database could not be reached or gave up on the work: a connection that could not be
 * made or was lost, a timeout, a busy lock. Thrown by the store for failures to obtain a
 * connection (whatever the driver said) and at start-up when the database stays unreachable;
 * `cause` holds the driver's error.
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/**
 * SQLSTATE classes and codes that mean the server cannot do the work now, rather than that the
 * statement is wrong: 08 connection exceptions, 53 insufficient resources (too many
 * connections, disk full), 57P0x shutdown / cannot connect now, 57014 statement timeout or
 * cancel, 3D000 a database that does not exist (yet).
 */
const UNAVAILABLE_SQLSTATE = /^(08|53|57P0)|^(57014|3D000)$/;

/** Socket errors of a connection that could not be made or was cut. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * What node-postgres says, without a code, when a connection ends or times out under a query
 * (its messages are stable across 8.x).
 */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/**
 * True when `error` says the database is unreachable, lost the connection, timed out or is
 * locked — worth a 503 and a later retry, not a 500. Looks through `cause` chains and
 * AggregateErrors (a host name that resolves to several refused addresses).
 */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  if (error instanceof StoreUnavailableError) return true;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (UNAVAILABLE_SQLSTATE.test(code) || NETWORK_CODES.has(code)) return true;
    // better-sqlite3: SQLITE_BUSY (and _SNAPSHOT, _TIMEOUT …) after busy_timeout, SQLITE_LOCKED.
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
  }
  if (typeof message === 'string' && PG_CONNECTION_MESSAGES.some((m) => message.startsWith(m))) {
    return true;
  }
  if (Array.isArray(errors) && errors.some((inner) => isStoreUnavailable(inner, depth + 1))) {
    return true;
  }
  return cause !== undefined && isStoreUnavailable(cause, depth + 1);
}

/** A one-line reason for logs: the driver's message and code, never a stack. */
export function describeStoreError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error instanceof StoreUnavailableError && error.cause !== undefined) {
    return describeStoreError(error.cause);
  }
  const inner =
    error.message === '' && error instanceof AggregateError && error.errors[0] instanceof Error
      ? error.errors[0]
      : error;
  const code = (inner as { code?: unknown }).code;
  const text = inner.message.split('\n')[0] || inner.name;
  return typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text;
}

/** Where the store reports the database coming and going (one line each time). */
export interface StoreLog {
  warn(message: string): void;
  info(message: string): void;
}

/** Writes nothing: for tests and tools that do not report availability. */
export const SILENT_STORE_LOG: StoreLog = { warn: () => {}, info: () => {} };

/**
 * Reports the database's availability as it changes, not on every failed request: one warning
 * when it is lost (with the first reason), one line when it answers again. Silent until the
 * first connection succeeds.
 */
export interface AvailabilityReporter {
  failed(error: unknown): void;
  succeeded(): void;
}

/**
 * A database counts as back once it answers with no failure for this long, in ms: a restart
 * cuts the pool's connections one after the other, and each success in between is not news.
 */
const SETTLE_MS = 1_000;

export function availabilityReporter(name: string, log: StoreLog): AvailabilityReporter {
  // Unknown until the first connection: failing to open is reported by whoever opens the store.
  let available: boolean | null = null;
  let lastFailureAt = 0;
  return {
    failed(error) {
      lastFailureAt = performance.now();
      if (available !== true) return;
      available = false;
      log.warn(
        `${name} unavailable: ${describeStoreError(error)}; requests that need it answer 503 until it is back`,
      );
    },
    succeeded() {
      if (available === null) available = true;
      if (available || performance.now() - lastFailureAt < SETTLE_MS) return;
      available = true;
      log.info(`${name} available again`);
    },
  };
}
