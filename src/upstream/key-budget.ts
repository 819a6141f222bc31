/**
 * The request budget of each upstream key, learnt from the upstream's own answers
 * (`X-Ratelimit-Limit/Remaining/Reset`, `Retry-After` on a 429) and spent before a request is
 * sent, so that a request the upstream would refuse is never sent. Requests go to the key with
 * the most budget left, which spreads them over the keys.
 *
 * These counts are kept in this process; with REDIS_URL set, shared-key-budget.ts keeps them in
 * Redis so that several instances with the same keys share one budget, and falls back to this.
 */

/** What one upstream answer says about its key's budget. Times are ms from `now`. */
export interface BudgetHeaders {
  limit: number | null;
  remaining: number | null;
  /** Ms until the window resets, from X-Ratelimit-Reset (or Retry-After on a 429). */
  resetInMs: number | null;
  /** True for a 429: nothing is left until the reset. */
  refused: boolean;
}

interface KeyState {
  key: string;
  /** Null until the upstream has answered once with its limit. */
  limit: number | null;
  remaining: number;
  /** Epoch ms (of `now`) at which the window resets; 0 when unknown. */
  resetAt: number;
  inFlight: number;
}

/** A key handed out for one request: report the answer with `record`. */
export interface KeyLease {
  key: string;
  index: number;
}

/** Budget of limited requests or the ms to wait for some (see KeyBudgets.take). */
export type BudgetTake = KeyLease | { waitMs: number };

/**
 * The budgets an UpstreamClient spends: this process's own (KeyBudgets) or shared through
 * Redis (SharedKeyBudgets).
 */
export interface UpstreamBudget {
  /** Limited requests sent, 429s received, budget left unspent in windows that ended. */
  readonly counts: { sent: number; refused: number; unspent: number };
  take(): BudgetTake | Promise<BudgetTake>;
  record(lease: KeyLease, headers: BudgetHeaders | null): void | Promise<void>;
  totalLimit(): number;
}

/** Margin added to every reset the upstream announces, for clocks and rounding (ms). */
export const RESET_MARGIN_MS = 250;
/** Window assumed when an upstream names none (the public service's minute). */
export const DEFAULT_WINDOW_MS = 60_000;

export class KeyBudgets implements UpstreamBudget {
  private readonly states: KeyState[];
  /**
   * Limited requests sent, those the upstream refused (429), and the budget left unspent in
   * windows that ended: sent / (sent + unspent) is the share of the budget used.
   */
  readonly counts = { sent: 0, refused: 0, unspent: 0 };

  constructor(
    keys: readonly string[],
    private readonly now: () => number = Date.now,
  ) {
    this.states = keys.map((key) => ({ key, limit: null, remaining: 1, resetAt: 0, inFlight: 0 }));
  }

  /**
   * Spends one request of the key with most left and returns it, or returns the ms to wait
   * until some key has budget again. A key never heard from gets one request at a time, whose
   * answer tells its budget.
   */
  take(): BudgetTake {
    const now = this.now();
    let best: KeyState | null = null;
    let bestIndex = -1;
    let soonest = Infinity;
    this.states.forEach((state, index) => {
      if (state.limit !== null && now >= state.resetAt) {
        this.counts.unspent += Math.max(0, state.remaining);
        state.remaining = state.limit;
        state.resetAt = now + DEFAULT_WINDOW_MS;
      }
      const free = state.limit === null ? (state.inFlight === 0 ? 1 : 0) : state.remaining;
      if (free > 0 && (best === null || free > best.remaining)) {
        best = state;
        bestIndex = index;
      }
      if (free <= 0) soonest = Math.min(soonest, Math.max(state.resetAt - now, 100));
    });
    if (best === null) return { waitMs: Number.isFinite(soonest) ? soonest : 1000 };
    const chosen = best as KeyState;
    chosen.remaining--;
    chosen.inFlight++;
    this.counts.sent++;
    return { key: chosen.key, index: bestIndex };
  }

  /** Records what the upstream answered to a request sent with `lease` (null: no answer). */
  record(lease: KeyLease, headers: BudgetHeaders | null): void {
    const state = this.states[lease.index]!;
    state.inFlight--;
    if (headers === null) return;
    const now = this.now();
    if (headers.refused) this.counts.refused++;
    if (headers.limit !== null) state.limit = headers.limit;
    if (state.limit === null) state.limit = headers.refused ? 1 : Math.max(1, state.remaining + 1);
    const resetAt =
      headers.resetInMs === null ? null : now + Math.max(0, headers.resetInMs) + RESET_MARGIN_MS;
    if (headers.refused) {
      state.remaining = 0;
      state.resetAt = resetAt ?? now + DEFAULT_WINDOW_MS;
      return;
    }
    if (headers.remaining === null) return;
    // Requests still in flight on this key may not be counted in the answer yet.
    const left = Math.max(0, headers.remaining - state.inFlight);
    const newWindow = resetAt !== null && resetAt > state.resetAt + 1000;
    state.remaining = newWindow ? left : Math.min(state.remaining, left);
    if (resetAt !== null && (newWindow || state.resetAt === 0)) state.resetAt = resetAt;
  }

  /** Requests per window over every key whose limit is known (for the budget-use figure). */
  totalLimit(): number {
    return this.states.reduce((sum, state) => sum + (state.limit ?? 0), 0);
  }
}
