/**
 * Ingest against its floor (issue 10, item 3): for each telemetry profile, the floor and the
 * library, CLI and HTTP paths on the same matches, then the demo; each as matches per
 * CPU-second and as a ratio to the floor. Goals: ≥ 0.7× for the ingest paths, ≥ 0.5× for the
 * demo (which also generates its matches); "cores used" (CPU time ÷ wall time) shows whether
 * more than one core works when several matches arrive.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ChildRegistry } from './children.ts';
import { perCpuSecond } from './cpu.ts';
import {
  measureFloor,
  telemetryProfiles,
  writeMatchSet,
  type TelemetryProfile,
} from './ingest-matches.ts';
import {
  ingestWithDemo,
  ingestWithLibrary,
  type PathCost,
  type StartCost,
} from './ingest-paths.ts';
import { cliStartCost, ingestWithCli } from './ingest-cli.ts';
import { ingestWithHttp } from './ingest-http.ts';

export const INGEST_GOAL = 0.7;
export const DEMO_GOAL = 0.5;
/**
 * The scale of the demo's short run, shown as its first pass: some 80 matches, over which V8
 * compiling the generator and ingest weighs several times as much as over the measured run.
 */
export const DEMO_FIRST_PASS_SCALE = 0.05;

export interface IngestRow {
  /**
   * A path's warm figure (`library`, `CLI`, `HTTP`: what a process that has been ingesting for
   * a while pays a match, the one held to the goal), its `first pass` (a fresh process, shown
   * without a goal), or `CLI unpinned` (the CLI's warm figure on every core).
   */
  path:
    | 'floor'
    | 'library'
    | 'library first pass'
    | 'CLI'
    | 'CLI first pass'
    | 'CLI unpinned'
    | 'HTTP'
    | 'HTTP first pass'
    | 'demo first pass'
    | 'demo';
  profile: TelemetryProfile;
  matches: number;
  /** Mean input size of a match, bytes. */
  inputBytes: number;
  cpuSeconds: number | null;
  wallSeconds: number;
  perCpuSecond: number | null;
  floorRatio: number | null;
  goal: number | null;
  failures: number;
}

export interface IngestReport {
  rows: IngestRow[];
  /** CPU seconds a CLI child takes to start, taken off the demo figures. */
  cliStartSeconds: number | null;
  /** The same with its ingest worker threads started, taken off the CLI figures. */
  cliWorkersStartSeconds: number | null;
  notes: string[];
}

export async function measureIngest(
  children: ChildRegistry,
  options: {
    matches: number;
    demoScale: number;
    /** Telemetry profiles measured (`default`, `full`) and `demo`. */
    parts: readonly string[];
    seed: number;
    serverCpus: string | null;
    /** Every CPU (Pinning's `every`): where the CLI's unpinned run goes. */
    everyCpu: string | null;
    cpuProfDir: string | undefined;
    workDir: string;
    log: (line: string) => void;
  },
): Promise<IngestReport> {
  const root = fs.mkdtempSync(path.join(options.workDir, 'ingest-'));
  const fresh = (name: string): string => fs.mkdtempSync(path.join(root, `${name}-`));
  const offered = telemetryProfiles();
  const profiles = offered.profiles.filter((profile) => options.parts.includes(profile));
  const note = options.parts.includes('full') ? offered.note : null;
  const notes = note ? [note] : [];
  const rows: IngestRow[] = [];
  const start = options.parts.includes('demo')
    ? await cliStartCost(children, root, options.serverCpus, false)
    : null;
  const startWithWorkers =
    profiles.length > 0 ? await cliStartCost(children, root, options.serverCpus, true) : null;
  const floors = new Map<TelemetryProfile, number>();

  for (const profile of profiles) {
    options.log(`Ingest (${profile} telemetry): generating ${options.matches} matches…`);
    const set = writeMatchSet(profile, {
      seed: options.seed,
      count: options.matches,
      dir: fresh(`matches-${profile}`),
    });
    const inputBytes = set.inputs.reduce((sum, b) => sum + b.length, 0) / set.inputs.length;
    // The floor is measured before each path and after the last, and the cheapest pass counts:
    // measured once, a slow moment of a shared machine at that one time would lower every
    // path's bar; spread over the profile's minutes, the least the work costs shows through.
    const floorPasses = [measureFloor(set)];
    const measured: Array<[IngestRow['path'], PathCost, number | null]> = [];
    const add = (name: IngestRow['path'], cost: PathCost, goal: number | null): void => {
      measured.push([name, cost, goal]);
    };
    // Full-size passes take seconds each: one pass at each later point is enough there.
    const floorAgain = (): void => {
      floorPasses.push(measureFloor(set, profile === 'full' ? 1 : 3));
    };
    if (set.warmFiles.length < set.inputs.length) {
      notes.push(
        `ingest (${profile}): only ${set.warmFiles.length} warm-up matches for ${set.inputs.length} measured`,
      );
    }
    options.log('  library path…');
    // Full-size matches take ten times as long: one warm pass or run each, whose length already
    // evens out more of the machine's noise, keeps the bench's run within its minutes.
    const repeats = profile === 'full' ? 1 : 2;
    const library = await ingestWithLibrary(set, fresh('library'), 1 + repeats);
    add('library first pass', library.first, null);
    add('library', library.warm, INGEST_GOAL);
    floorAgain();
    options.log('  CLI path…');
    const cli = await ingestWithCli(children, set, {
      workDir: root,
      cpus: options.serverCpus,
      everyCpu: options.everyCpu,
      start: startWithWorkers!,
      cpuProfDir: options.cpuProfDir,
      warmRuns: repeats,
    });
    add('CLI first pass', cli.first, null);
    add('CLI', cli.warm, INGEST_GOAL);
    if (cli.unpinned) add('CLI unpinned', cli.unpinned, INGEST_GOAL);
    floorAgain();
    options.log('  HTTP path…');
    const viaHttp = await ingestWithHttp(children, set, {
      workDir: root,
      cpus: options.serverCpus,
      cpuProfDir: options.cpuProfDir,
      warmRuns: repeats,
    });
    if (viaHttp === null) {
      if (profile === 'default')
        notes.push('ingest: HTTP path skipped, no POST /ingest/matches on this build');
    } else {
      add('HTTP first pass', viaHttp.first, null);
      add('HTTP', viaHttp.warm, INGEST_GOAL);
    }
    floorAgain();
    const floor = floorPasses.reduce((a, b) => (b.cpuMicros < a.cpuMicros ? b : a));
    floors.set(profile, floor.perCpuSecond);
    const row = (name: IngestRow['path'], cost: PathCost, goal: number | null): IngestRow => {
      const rate = perCpuSecond(cost.matches, cost.cpuMicros);
      return {
        path: name,
        profile,
        matches: cost.matches,
        inputBytes,
        cpuSeconds: cost.cpuMicros === null ? null : cost.cpuMicros / 1e6,
        wallSeconds: cost.wallMs / 1000,
        perCpuSecond: rate,
        floorRatio: rate === null ? null : rate / floor.perCpuSecond,
        goal,
        failures: cost.failures,
      };
    };
    rows.push(row('floor', { matches: set.inputs.length, ...floor, failures: 0 }, null));
    for (const [name, cost, goal] of measured) rows.push(row(name, cost, goal));
    fs.rmSync(path.dirname(set.dir), { recursive: true, force: true });
  }
  const [defaultFloor, fullFloor] = [floors.get('default'), floors.get('full')];
  if (defaultFloor !== undefined && fullFloor !== undefined && fullFloor >= defaultFloor) {
    notes.push(
      'ingest: the "full" telemetry profile is no heavier than the default one; check how generateDemo takes it',
    );
  }

  if (start !== null) {
    const runDemo = (scale: number): Promise<PathCost> => {
      options.log(`Demo (scale ${scale})…`);
      return ingestWithDemo(children, {
        scale,
        seed: options.seed,
        dataDir: fresh('demo'),
        cpus: options.serverCpus,
        start,
      });
    };
    if (options.demoScale > DEMO_FIRST_PASS_SCALE) {
      const short = await runDemo(DEMO_FIRST_PASS_SCALE);
      rows.push(demoRow('demo first pass', short, defaultFloor, null));
    }
    rows.push(demoRow('demo', await runDemo(options.demoScale), defaultFloor, DEMO_GOAL));
  }
  fs.rmSync(root, { recursive: true, force: true });
  const seconds = (cost: StartCost | null): number | null =>
    cost?.cpuMicros == null ? null : cost.cpuMicros / 1e6;
  return {
    rows,
    cliStartSeconds: seconds(start),
    cliWorkersStartSeconds: seconds(startWithWorkers),
    notes,
  };
}

/** A demo row: matches the run stored per CPU-second, against the default telemetry's floor. */
function demoRow(
  path: 'demo' | 'demo first pass',
  demo: PathCost,
  defaultFloor: number | undefined,
  goal: number | null,
): IngestRow {
  const rate = perCpuSecond(demo.matches, demo.cpuMicros);
  return {
    path,
    profile: 'default',
    matches: demo.matches,
    inputBytes: NaN,
    cpuSeconds: demo.cpuMicros === null ? null : demo.cpuMicros / 1e6,
    wallSeconds: demo.wallMs / 1000,
    perCpuSecond: rate,
    floorRatio: rate === null || defaultFloor === undefined ? null : rate / defaultFloor,
    goal,
    failures: demo.failures,
  };
}
