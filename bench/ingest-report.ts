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
  cliStartCost,
  ingestWithCli,
  ingestWithDemo,
  ingestWithLibrary,
  type PathCost,
  type StartCost,
} from './ingest-paths.ts';
import { ingestWithHttp } from './ingest-http.ts';
import { amount, count, markdownTable, ratioCell, size } from './report.ts';

export const INGEST_GOAL = 0.7;
export const DEMO_GOAL = 0.5;

export interface IngestRow {
  path: 'floor' | 'library' | 'CLI' | 'HTTP' | 'demo';
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
    seed: number;
    serverCpus: string | null;
    cpuProfDir: string | undefined;
    workDir: string;
    log: (line: string) => void;
  },
): Promise<IngestReport> {
  const root = fs.mkdtempSync(path.join(options.workDir, 'ingest-'));
  const fresh = (name: string): string => fs.mkdtempSync(path.join(root, `${name}-`));
  const { profiles, note } = telemetryProfiles();
  const notes = note ? [note] : [];
  const rows: IngestRow[] = [];
  const start = await cliStartCost(children, root, options.serverCpus, false);
  const startWithWorkers = await cliStartCost(children, root, options.serverCpus, true);
  const floors = new Map<TelemetryProfile, number>();

  for (const profile of profiles) {
    options.log(`Ingest (${profile} telemetry): generating ${options.matches} matches…`);
    const set = writeMatchSet(profile, {
      seed: options.seed,
      count: options.matches,
      dir: fresh(`matches-${profile}`),
    });
    const inputBytes = set.inputs.reduce((sum, b) => sum + b.length, 0) / set.inputs.length;
    const floor = measureFloor(set);
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
    options.log('  library path…');
    rows.push(row('library', await ingestWithLibrary(set, fresh('library')), INGEST_GOAL));
    options.log('  CLI path…');
    const cli = await ingestWithCli(children, set, {
      dataDir: fresh('cli'),
      cpus: options.serverCpus,
      start: startWithWorkers,
      cpuProfDir: options.cpuProfDir,
    });
    rows.push(row('CLI', cli, INGEST_GOAL));
    options.log('  HTTP path…');
    const viaHttp = await ingestWithHttp(children, set, {
      dataDir: fresh('http'),
      cpus: options.serverCpus,
      cpuProfDir: options.cpuProfDir,
    });
    if (viaHttp === null) {
      if (profile === 'default')
        notes.push('ingest: HTTP path skipped, no POST /ingest/matches on this build');
    } else {
      rows.push(row('HTTP', viaHttp, INGEST_GOAL));
    }
    fs.rmSync(set.dir, { recursive: true, force: true });
  }
  const [defaultFloor, fullFloor] = [floors.get('default'), floors.get('full')];
  if (defaultFloor !== undefined && fullFloor !== undefined && fullFloor >= defaultFloor) {
    notes.push(
      'ingest: the "full" telemetry profile is no heavier than the default one; check how generateDemo takes it',
    );
  }

  options.log(`Demo (scale ${options.demoScale})…`);
  const demo = await ingestWithDemo(children, {
    scale: options.demoScale,
    seed: options.seed,
    dataDir: fresh('demo'),
    cpus: options.serverCpus,
    start,
  });
  const rate = perCpuSecond(demo.matches, demo.cpuMicros);
  rows.push({
    path: 'demo',
    profile: 'default',
    matches: demo.matches,
    inputBytes: NaN,
    cpuSeconds: demo.cpuMicros === null ? null : demo.cpuMicros / 1e6,
    wallSeconds: demo.wallMs / 1000,
    perCpuSecond: rate,
    floorRatio: rate === null || defaultFloor === undefined ? null : rate / defaultFloor,
    goal: DEMO_GOAL,
    failures: demo.failures,
  });
  fs.rmSync(root, { recursive: true, force: true });
  const seconds = (cost: StartCost): number | null =>
    cost.cpuMicros === null ? null : cost.cpuMicros / 1e6;
  return {
    rows,
    cliStartSeconds: seconds(start),
    cliWorkersStartSeconds: seconds(startWithWorkers),
    notes,
  };
}

export function ingestTable(report: IngestReport): string {
  const table = markdownTable(
    [
      'path',
      'telemetry',
      'matches',
      'input/match',
      'CPU s',
      'wall s',
      'cores used',
      'matches/CPU-s',
      '× floor',
    ],
    report.rows.map((row) => [
      row.path + (row.failures > 0 ? ` ⚠ ${row.failures} failed` : ''),
      row.profile,
      count(row.matches),
      Number.isFinite(row.inputBytes) ? size(row.inputBytes) : '—',
      amount(row.cpuSeconds),
      Number.isFinite(row.wallSeconds) ? amount(row.wallSeconds) : '—',
      row.cpuSeconds === null || !Number.isFinite(row.wallSeconds)
        ? '—'
        : (row.cpuSeconds / row.wallSeconds).toFixed(2),
      amount(row.perCpuSecond),
      row.path === 'floor' ? '1.00×' : ratioCell(row.floorRatio, row.goal),
    ]),
  );
  const start =
    report.cliStartSeconds === null || report.cliWorkersStartSeconds === null
      ? ''
      : ` A CLI process's start and its wall time are taken off the CLI row (${report.cliWorkersStartSeconds.toFixed(2)} CPU s, its ingest worker threads' start included) and the demo row (${report.cliStartSeconds.toFixed(2)} CPU s).`;
  return (
    `${table}\n\nFloor: JSON.parse of each input and one gzip of its telemetry, the cheapest of three passes; the library row is the cheaper of two passes, each into a fresh store (a first pass also pays V8 compiling the ingest code). Goals: ingest ≥ ${INGEST_GOAL}×, ` +
    `demo (generation included) ≥ ${DEMO_GOAL}× the floor.${start}`
  );
}
