/**
 * Loads the demo data set into a store: every generated match goes through `ingestMatch`, the
 * one way data enters, so the demo exercises exactly what real game servers do. Running it
 * again with the same seed and instant changes nothing (every match is a duplicate then).
 */
import cliProgress from 'cli-progress';
import { ingestMatch, type IngestDeps } from '../ingest/ingest-match.ts';
import { generateDemo } from './generate-demo.ts';
import { ingestDemoClans } from './clans.ts';

export interface PopulateDemoOptions {
  seed: number;
  /** 1 is the default data set (about 1,600 matches); see `generateDemo`. */
  scale: number;
  /** The instant the data is generated for (epoch ms); use the ingest clock's now. */
  now: number;
  /** Show a progress bar on stderr (only when stderr is a terminal). */
  progress: boolean;
}

export interface PopulateDemoResult {
  /** Accounts in the demo (players and tournament pros). */
  players: number;
  matches: number;
  ingested: number;
  duplicates: number;
  /** Wall-clock milliseconds spent. */
  ms: number;
}

/** Matches being ingested at once; more only queue behind the single writer. */
const IN_FLIGHT = 4;

/** Generates the demo matches and ingests them, a few at a time, in chronological order. */
export async function populateDemo(
  deps: IngestDeps,
  options: PopulateDemoOptions,
): Promise<PopulateDemoResult> {
  const started = performance.now();
  const plan = generateDemo({ seed: options.seed, now: options.now, scale: options.scale });
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
  const settle = async (pending: ReturnType<typeof ingestMatch>): Promise<void> => {
    const { status } = await pending;
    if (status === 'ingested') ingested++;
    else duplicates++;
    bar?.increment();
  };
  // A few matches in flight: while one match's transaction runs, the next ones are generated,
  // and their telemetry is gzipped and written by the thread pool. Transactions still commit one
  // at a time (SQLite has one writer), and every derived value — sums, maxima, newest name,
  // distinct days — comes out the same whatever order the matches commit in.
  const inFlight = new Set<Promise<void>>();
  const failures: unknown[] = [];
  try {
    for (const match of plan.matches()) {
      if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
      if (failures.length > 0) break;
      const pending: Promise<void> = settle(ingestMatch(deps, match))
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
  await ingestDemoClans(deps, options.seed, plan.players);
  return {
    players: plan.players.length,
    matches: plan.matchCount,
    ingested,
    duplicates,
    ms: Math.round(performance.now() - started),
  };
}
