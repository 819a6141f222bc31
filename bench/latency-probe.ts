/**
 * An open-loop latency probe: sends requests at a fixed rate whatever the server does, each on
 * a connection of its own if need be, so no request waits for an earlier one to be answered. A
 * server that stalls for seconds then shows seconds of latency on every request sent meanwhile
 * — which a closed-loop generator like wrk hides (its connections simply wait, and a run that
 * ends during the stall drops them). Used beside wrk's steady load while a job runs. Latency is
 * timed from the send: when this process itself runs late (it shares a core with wrk), sending
 * is late, but that delay is not charged to the server.
 */
import http from 'node:http';

export interface ProbeSample {
  path: string;
  /** When the request was sent (performance.now() ms). */
  sentAt: number;
  latencyMs: number;
  /** 0 for a failed request. */
  status: number;
}

export interface RunningProbe {
  /** Stops sending and resolves once every request sent has ended (or after `graceMs`). */
  stop(graceMs?: number): Promise<ProbeSample[]>;
}

export function startProbe(
  origin: string,
  paths: readonly string[],
  headers: Readonly<Record<string, string>>,
  perSecond: number,
): RunningProbe {
  // Enough sockets that no probe waits for one here: waiting belongs to the server.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  const samples: ProbeSample[] = [];
  const pending = new Set<Promise<void>>();
  const interval = 1000 / perSecond;
  const startedAt = performance.now();
  let sent = 0;

  const send = (path: string): void => {
    const sentAt = performance.now();
    const done = new Promise<void>((resolve) => {
      const finish = (status: number): void => {
        samples.push({ path, sentAt, latencyMs: performance.now() - sentAt, status });
        resolve();
      };
      const request = http.get(origin + path, { agent, headers }, (response) => {
        response.resume();
        response.on('end', () => finish(response.statusCode ?? 0));
        response.on('error', () => finish(0));
      });
      request.on('error', () => finish(0));
    });
    pending.add(done);
    void done.then(() => pending.delete(done));
  };

  // Catches up with every request due since the last tick: timers run late under load too.
  const timer = setInterval(
    () => {
      const due = Math.floor((performance.now() - startedAt) / interval);
      for (; sent < due; sent++) send(paths[sent % paths.length]!);
    },
    Math.max(1, Math.floor(interval)),
  );

  return {
    async stop(graceMs = 60_000) {
      clearInterval(timer);
      await Promise.race([
        Promise.all(pending),
        new Promise((resolve) => setTimeout(resolve, graceMs)),
      ]);
      agent.destroy();
      return samples;
    },
  };
}

export interface LatencySummary {
  requests: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The slowest requests that succeeded, slowest first: which paths a stall caught, and when. */
  slowest: SlowProbe[];
}

export interface SlowProbe {
  path: string;
  /** When it was sent, ms after the window's start (after the first request without bounds). */
  sentAfterMs: number;
  latencyMs: number;
}

/** How many of the slowest requests a summary names. */
const SLOWEST_NAMED = 3;

/**
 * The latency of the samples sent within [from, to) (all of them without bounds): exact
 * percentiles (nearest rank) of the requests that succeeded; failures counted apart.
 */
export function summariseProbe(
  samples: readonly ProbeSample[],
  from = -Infinity,
  to = Infinity,
): LatencySummary {
  const inWindow = samples.filter((s) => s.sentAt >= from && s.sentAt < to);
  const answered = inWindow
    .filter((s) => s.status >= 200 && s.status < 400)
    .sort((a, b) => a.latencyMs - b.latencyMs);
  const ok = answered.map((s) => s.latencyMs);
  const origin = Number.isFinite(from) ? from : Math.min(...inWindow.map((s) => s.sentAt));
  const rank = (percent: number): number =>
    ok.length === 0
      ? NaN
      : ok[Math.min(ok.length - 1, Math.ceil((percent / 100) * ok.length) - 1)]!;
  return {
    requests: inWindow.length,
    failures: inWindow.length - ok.length,
    p50Ms: rank(50),
    p99Ms: rank(99),
    maxMs: ok.length === 0 ? NaN : ok[ok.length - 1]!,
    slowest: answered
      .slice(-SLOWEST_NAMED)
      .reverse()
      .map((s) => ({ path: s.path, sentAfterMs: s.sentAt - origin, latencyMs: s.latencyMs })),
  };
}
