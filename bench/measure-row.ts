/**
 * Measures one row: the subject server (the service, or a variant of it) and its baseline (the
 * bare server replaying the same bytes, or the service as configured by default) loaded with
 * the same wrk command in alternating slices — subject, baseline, baseline, subject, … — so a
 * drift of the shared machine (other work, CPU frequency) weighs on both alike instead of on
 * whichever ran second. The server's CPU time is read from /proc around each slice.
 */
import type { ChildRegistry } from './children.ts';
import { microsPerRequest, startCpuMeter } from './cpu.ts';
import { watchRss } from './memory.ts';
import type { RunningServer } from './servers.ts';
import { runWrk, type WrkLoad } from './wrk.ts';
import {
  failuresOf,
  mergeLatency,
  percentileOf,
  type LatencyDistribution,
  type WrkResult,
} from './wrk-output.ts';

export interface LoadSettings {
  connections: number;
  threads: number;
  /** Measured seconds per side, split into `slices` alternating slices. */
  duration: number;
  slices: number;
  /** Unmeasured seconds per side first (JIT, caches, connections). */
  warmup: number;
  /** CPUs of the load generator. */
  cpus: string | null;
}

/** What one side of a row measured over all its slices. */
export interface SideResult {
  server: string;
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** Server CPU (user + system) per request, µs; null without procfs. */
  cpuMicrosPerRequest: number | null;
  /** The server's largest resident set over the measured slices, bytes; null without procfs. */
  peakRssBytes: number | null;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  bytesPerRequest: number;
  failures: number;
  latency: LatencyDistribution;
}

interface Side {
  server: RunningServer;
  results: WrkResult[];
  cpuMicros: number | null;
  peakRssBytes: number | null;
}

/**
 * Loads `subject` and `baseline` on the same paths and headers; resolves with both sides.
 * `progress` gets one line per slice.
 */
export async function measureRow(
  children: ChildRegistry,
  subject: RunningServer,
  baseline: RunningServer,
  request: { paths: readonly string[]; headers: Readonly<Record<string, string>> },
  settings: LoadSettings,
  progress: (line: string) => void,
): Promise<{ subject: SideResult; baseline: SideResult }> {
  const load = (server: RunningServer): WrkLoad => ({
    origin: server.origin,
    paths: request.paths,
    headers: request.headers,
    connections: settings.connections,
    threads: settings.threads,
    cpus: settings.cpus,
  });
  const sides: Side[] = [subject, baseline].map((server) => ({
    server,
    results: [],
    cpuMicros: 0,
    peakRssBytes: null,
  }));
  for (const side of sides) await runWrk(children, load(side.server), settings.warmup);

  const sliceSeconds = Math.max(1, Math.round(settings.duration / settings.slices));
  const memory = sides.map((side) => watchRss(side.server.pid));
  for (let slice = 0; slice < settings.slices; slice++) {
    const order = slice % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const cpu = startCpuMeter(side.server.pid);
      const result = await runWrk(children, load(side.server), sliceSeconds);
      const used = cpu();
      side.cpuMicros = used === null || side.cpuMicros === null ? null : side.cpuMicros + used;
      side.results.push(result);
      progress(
        `    slice ${slice + 1}/${settings.slices} ${side.server.label}: ` +
          `${(result.requests / result.seconds).toFixed(0)} req/s`,
      );
    }
  }
  sides.forEach((side, index) => (side.peakRssBytes = memory[index]!.stop()));
  const [subjectSide, baselineSide] = sides.map(summarise) as [SideResult, SideResult];
  return { subject: subjectSide, baseline: baselineSide };
}

function summarise(side: Side): SideResult {
  const requests = side.results.reduce((sum, r) => sum + r.requests, 0);
  const seconds = side.results.reduce((sum, r) => sum + r.seconds, 0);
  const bytes = side.results.reduce((sum, r) => sum + r.bytes, 0);
  const latency = mergeLatency(side.results.map((r) => r.latency));
  return {
    server: side.server.label,
    requests,
    seconds,
    requestsPerSecond: seconds > 0 ? requests / seconds : 0,
    cpuMicrosPerRequest: microsPerRequest(side.cpuMicros, requests),
    peakRssBytes: side.peakRssBytes,
    p50Ms: percentileOf(latency, 50),
    p99Ms: percentileOf(latency, 99),
    maxMs: latency.maxMs,
    bytesPerRequest: requests > 0 ? bytes / requests : 0,
    failures: side.results.reduce((sum, r) => sum + failuresOf(r.errors), 0),
    latency,
  };
}
