/**
 * Loads the demo data set into a store: every generated match goes through `ingestMatch`, the
 * one way data enters, so the demo exercises exactly what real game servers do — with its
 * telemetry as a file (as recorded matches come), written as text while the match is generated.
 * Running it again with the same seed and instant changes nothing (every match is a duplicate
 * then).
 */
import cliProgress from 'cli-progress';
import { ingestMatch, type IngestDeps, type IngestResult } from '../ingest/ingest-match.ts';
import { telemetryFileOfText } from '../ingest/telemetry-file.ts';
import { generateDemo, type DemoMatch } from './generate-demo.ts';
import { ingestDemoClans } from './clans.ts';
import { retentionCutoff } from '../domain/retention.ts';
import type { TelemetryProfileName } from './telemetry-profile.ts';

export interface PopulateDemoOptions {
  seed: number;
  /** 1 is the default data set (about 1,600 matches); see `generateDemo`. */
  scale: number;
  /** The instant the data is generated for (epoch ms); use the ingest clock's now. */
  now: number;
  /** Show a progress bar on stderr (only when stderr is a terminal). */
  progress: boolean;
  /** Aborting stops the load once the matches in flight have committed (a stop signal). */
  signal?: AbortSignal;
  /** Telemetry profile (see `telemetry-profile.ts`); `default` when absent. */
  telemetry?: TelemetryProfileName;
}

export interface PopulateDemoResult {
  /** Accounts in the demo (players and tournament pros). */
  players: number;
  matches: number;
  ingested: number;
  duplicates: number;
  /** Matches skipped because they are already past the retention window (a resumed old run). */
  expired: number;
  /** True when the signal stopped the load before every match was stored. */
  interrupted: boolean;
  /** Wall-clock milliseconds spent. */
  ms: number;
}

/**
 * Matches this close to leaving retention are skipped: ingest would refuse them should the load
 * take that long to reach them, and retention would purge them within minutes anyway.
 */
const EXPIRY_MARGIN_MS = 5 * 60_000;

/** Matches being ingested at once; more only queue behind the single writer. */
const IN_FLIGHT = 4;

/** Generates the demo matches and ingests them, a few at a time, in chronological order. */
export async function populateDemo(
  deps: IngestDeps,
  options: PopulateDemoOptions,
): Promise<PopulateDemoResult> {
  const started = performance.now();
  const plan = generateDemo({
    seed: options.seed,
    now: options.now,
    scale: options.scale,
    telemetry: options.telemetry ?? 'default',
  });
  const bar =
    options.progress && process.stderr.isTTY
      ? new cliProgress.SingleBar(
          {
            format:
              'demo data [{bar}] {percentage}% | {value}/{total} matches | {duration_formatted}',
            hideCursor: true,
            stream: process.stderr,
          },
          cliProgress.Presets.shades_classic,
        )
      : null;
  bar?.start(plan.matchCount, 0);
  let ingested = 0;
  let duplicates = 0;
  let expired = 0;
  const settle = async (pending: Promise<IngestResult>): Promise<void> => {
    const { status } = await pending;
    if (status === 'ingested') ingested++;
    else duplicates++;
    bar?.increment();
  };
  // A few matches in flight: while one match is stored, the next ones are generated and their
  // telemetry is gzipped by the thread pool. They are stored one at a time in the order they were
  // generated, so that a seed stores the same numbers every time: sums of fractions (distances,
  // damage) come out a few ulps apart when added in another order.
  const inFlight = new Set<Promise<void>>();
  const failures: unknown[] = [];
  let previous: Promise<unknown> = Promise.resolve();
  try {
    for (const match of plan.matchesWithText()) {
      if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
      if (failures.length > 0 || options.signal?.aborted) break;
      if (
        Date.parse(match.input.createdAt) <
        retentionCutoff(deps.config.retentionDays, deps.clock.now()) + EXPIRY_MARGIN_MS
      ) {
        expired++;
        bar?.increment();
        continue;
      }
      const result = ingestDemoMatch(deps, match, previous);
      previous = result.catch(() => undefined);
      const pending: Promise<void> = settle(result)
        .catch((error: unknown) => {
          failures.push(error);
        })
        .finally(() => inFlight.delete(pending));
      inFlight.add(pending);
    }
    await Promise.all(inFlight);
    if (failures.length > 0) throw failures[0];
  } finally {
    bar?.stop();
  }
  const interrupted = ingested + duplicates + expired < plan.matchCount;
  // Clans after the matches, once they are all in (a stopped load adds them when resumed).
  if (!interrupted) await ingestDemoClans(deps, options.seed, plan.players);
  return {
    players: plan.players.length,
    matches: plan.matchCount,
    ingested,
    duplicates,
    expired,
    interrupted,
    ms: Math.round(performance.now() - started),
  };
}

/**
 * Ingests a generated match with its telemetry file (gzipped from now on) once `previous` has
 * settled: the same file, bytes and rows as the match given with its events inline.
 */
async function ingestDemoMatch(
  deps: IngestDeps,
  match: DemoMatch,
  previous: Promise<unknown>,
): Promise<IngestResult> {
  const { telemetry } = match;
  const file = telemetry ? telemetryFileOfText(telemetry.json, telemetry.events) : null;
  // Handled here too: a failed gzip is reported by the ingest below, not as unhandled meanwhile.
  file?.catch(() => undefined);
  await previous;
  return ingestMatch(deps, match.input, file ? { telemetry: await file } : {});
}
