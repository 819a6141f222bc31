/**
 * A demo load as `serve` and `gamedata demo` run it: which run (seed, scale and the instant the
 * data is generated for) to load, recorded in the store before the first match, so that a load
 * interrupted half-way is resumed with the same matches rather than a different 14 days; and,
 * when a load completes with new matches, a rebuild of what jobs derived from part of it.
 */
import type { IngestDeps } from '../ingest/ingest-match.ts';
import { requestDerivedDataRebuild } from '../jobs/index.ts';
import { listDemoRuns, recordDemoRunFinished, recordDemoRunStarted } from '../store/demo-runs.ts';
import { populateDemo, type PopulateDemoResult } from './populate-demo.ts';
import type { TelemetryProfileName } from './telemetry-profile.ts';

export interface DemoRunChoice {
  seed: number;
  scale: number;
  /** The instant the data set is generated for (epoch ms). */
  now: number;
  /** True when the run was recorded before (its `now` is reused). */
  recorded: boolean;
}

/**
 * The run `gamedata demo` loads: the given seed and scale at `now` when given; otherwise at the
 * instant of the latest recorded run of that seed and scale (so running it again, or after an
 * interruption, loads the same matches), or at the clock's now for a seed and scale never loaded.
 */
export async function chooseDemoRun(
  deps: IngestDeps,
  wanted: { seed: number; scale: number; now: number | null },
): Promise<DemoRunChoice> {
  const runs = await listDemoRuns(deps.store.db);
  const same = runs.filter((run) => run.seed === wanted.seed && run.scale === wanted.scale);
  const now = wanted.now ?? same[0]?.now ?? deps.clock.now();
  return {
    seed: wanted.seed,
    scale: wanted.scale,
    now,
    recorded: same.some((run) => run.now === now),
  };
}

/**
 * The run `serve` loads before listening (DEMO_DATA=auto): the most recent unfinished run, if a
 * load was interrupted; else, when no match is stored, a new run of `seed` at scale 1 and the
 * clock's now; else none.
 */
export async function demoRunToServe(
  deps: IngestDeps,
  options: { seed: number; storeIsEmpty: boolean },
): Promise<DemoRunChoice | null> {
  const unfinished = (await listDemoRuns(deps.store.db)).find((run) => run.finishedAt === null);
  if (unfinished) {
    return { seed: unfinished.seed, scale: unfinished.scale, now: unfinished.now, recorded: true };
  }
  if (!options.storeIsEmpty) return null;
  return { seed: options.seed, scale: 1, now: deps.clock.now(), recorded: false };
}

/**
 * Loads a run: records it, ingests its matches (stopping after the matches in flight when
 * `signal` aborts), and once every match is stored records it finished and, if this load added
 * matches, asks the derived-data jobs to rebuild.
 */
export async function loadDemo(
  deps: IngestDeps,
  run: DemoRunChoice,
  options: { progress: boolean; signal?: AbortSignal; telemetry?: TelemetryProfileName },
): Promise<PopulateDemoResult> {
  const { db } = deps.store;
  await recordDemoRunStarted(db, { ...run, startedAt: deps.clock.now() });
  const result = await populateDemo(deps, {
    seed: run.seed,
    scale: run.scale,
    now: run.now,
    progress: options.progress,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
  });
  if (!result.interrupted) {
    await recordDemoRunFinished(db, { ...run, finishedAt: deps.clock.now() });
    if (result.ingested > 0) await requestDerivedDataRebuild(db);
  }
  return result;
}
