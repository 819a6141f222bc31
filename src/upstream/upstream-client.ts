/**
 * Requests to the upstream API with Node's fetch: each bounded by UPSTREAM_TIMEOUT_MS, limited
 * ones (players, stats, samples …) sent with the key that has budget left (key-budget.ts) and
 * only when one has, unlimited ones (matches, telemetry files — the public service does not
 * limit them) without any key. The keys go only into the Authorization header of requests to
 * UPSTREAM_URL itself: never into an error, a log line or a response.
 */
import type { UpstreamConfig } from '../config.ts';
import { KeyBudgets, type BudgetHeaders, type UpstreamBudget } from './key-budget.ts';

/** The upstream could not be reached or failed (timeout, network, 5xx). */
export class UpstreamUnavailableError extends Error {
  constructor(
    message: string,
    /** When trying again makes sense, ms. */
    readonly retryAfterMs = 30_000,
  ) {
    super(message);
  }
}

/** No key has budget left (or the upstream refused with 429): wait `retryAfterMs`. */
export class UpstreamBusyError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`the upstream budget is spent for ${Math.ceil(retryAfterMs / 1000)} s`);
  }
}

/** An upstream answer other than an outage: its status and body bytes (decompressed). */
export interface UpstreamAnswer {
  status: number;
  body: Buffer;
}

export interface UpstreamRequestOptions {
  /** True for endpoints the upstream rate-limits: sent with a key, spending its budget. */
  limited: boolean;
  /** Longest wait for budget, ms; beyond it UpstreamBusyError (default 0: none). */
  maxWaitMs?: number;
  /** Aborts a wait for budget and the request. */
  signal?: AbortSignal;
}

const JSON_API = 'application/vnd.api+json';

export class UpstreamClient {
  /** Unlimited requests sent (matches and telemetry files). */
  readonly counts = { unlimited: 0 };

  /** `budgets`: where key budgets are counted (default: in this process alone). */
  constructor(
    private readonly config: UpstreamConfig,
    readonly budgets: UpstreamBudget = new KeyBudgets(config.keys),
  ) {}

  /** GETs a path of the upstream API (`/shards/pc-b/samples`). */
  async get(path: string, options: UpstreamRequestOptions): Promise<UpstreamAnswer> {
    return this.fetch(`${this.config.url}${path}`, options);
  }

  /**
   * A recorded document's bytes with every link into the upstream API (a JSON string starting
   * `"<UPSTREAM_URL>/`) naming `baseUrl` (PUBLIC_BASE_URL) instead: what is served then names
   * this service, the rest of the bytes as the upstream sent them.
   */
  relink(body: Buffer, baseUrl: string): Buffer {
    const from = `"${this.config.url}/`;
    const text = body.toString('utf8');
    return text.includes(from) ? Buffer.from(text.replaceAll(from, `"${baseUrl}/`)) : body;
  }

  /**
   * GETs an absolute URL an upstream document named (a telemetry file): never with a key, since
   * it may be on another host (the public service's CDN).
   */
  async getUrl(url: string, signal?: AbortSignal): Promise<UpstreamAnswer> {
    if (!/^https?:\/\//.test(url)) throw new UpstreamUnavailableError(`not an http URL: ${url}`);
    return this.fetch(url, { limited: false, ...(signal ? { signal } : {}) });
  }

  private async fetch(url: string, options: UpstreamRequestOptions): Promise<UpstreamAnswer> {
    const headers: Record<string, string> = { accept: JSON_API, 'accept-encoding': 'gzip' };
    const lease = options.limited ? await this.lease(options) : null;
    if (lease) headers.authorization = `Bearer ${lease.key}`;
    else this.counts.unlimited++;
    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let response: Response;
    let body: Buffer;
    try {
      response = await fetch(url, { headers, signal, redirect: 'follow' });
      body = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      if (lease) await this.budgets.record(lease, null);
      options.signal?.throwIfAborted();
      const reason = timeout.aborted ? `no answer in ${this.config.timeoutMs} ms` : describe(error);
      throw new UpstreamUnavailableError(`upstream ${new URL(url).host}: ${reason}`);
    }
    if (lease) await this.budgets.record(lease, budgetHeaders(response));
    if (response.status === 429) {
      throw new UpstreamBusyError(budgetHeaders(response).resetInMs ?? 60_000);
    }
    if (response.status >= 500) {
      const retryAfter = retryAfterMs(response.headers);
      throw new UpstreamUnavailableError(
        `upstream ${new URL(url).host} answered ${response.status}`,
        retryAfter ?? 30_000,
      );
    }
    return { status: response.status, body };
  }

  /** Takes budget of some key, waiting up to `maxWaitMs` for one. */
  private async lease(options: UpstreamRequestOptions) {
    const deadline = Date.now() + (options.maxWaitMs ?? 0);
    for (;;) {
      options.signal?.throwIfAborted();
      const taken = await this.budgets.take();
      if ('key' in taken) return taken;
      if (Date.now() + taken.waitMs > deadline) throw new UpstreamBusyError(taken.waitMs);
      await sleep(taken.waitMs, options.signal);
    }
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

function retryAfterMs(headers: Headers): number | null {
  const value = headers.get('retry-after');
  if (value === null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/**
 * The budget an answer announces. X-Ratelimit-Reset is an epoch second of the upstream's clock:
 * measured from the answer's own Date header, so clocks that disagree do not matter.
 */
function budgetHeaders(response: Response): BudgetHeaders {
  const number = (name: string): number | null => {
    const value = response.headers.get(name);
    return value === null || !Number.isFinite(Number(value)) ? null : Number(value);
  };
  const reset = number('x-ratelimit-reset');
  const date = Date.parse(response.headers.get('date') ?? '');
  const base = Number.isNaN(date) ? Date.now() : date;
  const refused = response.status === 429;
  const resetInMs =
    (refused ? retryAfterMs(response.headers) : null) ??
    (reset === null ? null : reset * 1000 - base);
  return {
    limit: number('x-ratelimit-limit'),
    remaining: number('x-ratelimit-remaining'),
    resetInMs,
    refused,
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
