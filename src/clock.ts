/** The source of "now" (epoch ms). Everything time-dependent takes one, so tests can fix it. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock stopped at one instant; `set` and `advance` move it (for tests and the CLI's `--now`). */
export function fixedClock(at: number | string | Date): Clock & {
  set(at: number | string | Date): void;
  advance(ms: number): void;
} {
  let current = new Date(at).getTime();
  return {
    now: () => current,
    set: (next) => {
      current = new Date(next).getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}
