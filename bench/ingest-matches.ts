/**
 * The fixed set of matches every ingest path is measured on: demo matches in the ingest format
 * (telemetry inline), written one per file, and the floor measured on the same bytes — what
 * no ingest can avoid: parsing the input and gzipping the telemetry once.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { generateDemo, MIN_SCALE, type DemoOptions } from '../src/demo/generate-demo.ts';
import { perCpuSecond } from './cpu.ts';
import { ROOT } from './project-root.ts';

export type TelemetryProfile = 'default' | 'full';

export interface MatchSet {
  profile: TelemetryProfile;
  /** The set's files, one match each. */
  dir: string;
  /**
   * As many other matches of the same demo (distinct ids, the same mix), to warm a process with
   * before the set is measured: their files, kept on disk rather than in memory.
   */
  warmFiles: string[];
  /**
   * Links to the warm-up files, then to the set's, then to the first few warm-up files again (a
   * tail, so that while the set's last matches are stored a worker pool still has files to
   * prepare, as in the middle of a long run): the CLI's warm run (ingest-cli.ts).
   */
  bothDir: string;
  /** The input bytes of each match, as written to its file. */
  inputs: Buffer[];
  /** Each match's telemetry as JSON (what is gzipped into its file); empty without telemetry. */
  telemetry: Buffer[];
}

/**
 * The telemetry profiles the demo offers: `full` when `gamedata demo` has a `--telemetry`
 * option (full-size telemetry files), passed to the generator as `telemetry: 'full'`.
 */
export function telemetryProfiles(): { profiles: TelemetryProfile[]; note: string | null } {
  const help = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'src/main.ts'), 'demo', '--help'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return help.includes('--telemetry')
    ? { profiles: ['default', 'full'], note: null }
    : {
        profiles: ['default'],
        note: 'ingest: default demo telemetry only; this build has no `demo --telemetry full` profile',
      };
}

/**
 * Writes `count` demo matches of a profile into `<dir>/set` (`match-0001.json`, …): every other
 * match of a demo twice that size, from the newest back, so the set mixes modes, maps and
 * platforms and none is near the end of the retention window while it is being ingested. The
 * matches in between go to `<dir>/warm`, and links to both (see MatchSet) to `<dir>/both`.
 */
export function writeMatchSet(
  profile: TelemetryProfile,
  options: { seed: number; count: number; dir: string },
): MatchSet {
  const now = Date.now();
  const demoOptions = { seed: options.seed, now, scale: Math.max(MIN_SCALE, options.count / 750) };
  const plan = generateDemo(
    (profile === 'full' ? { ...demoOptions, telemetry: 'full' } : demoOptions) as DemoOptions,
  );
  const all = [...plan.matches()];
  const half = (parity: number) =>
    all
      .filter((_, i) => (all.length - 1 - i) % 2 === parity)
      .slice(-options.count)
      .reverse();
  const [dir, warmDir, bothDir] = ['set', 'warm', 'both'].map((name) => {
    const made = path.join(options.dir, name);
    fs.mkdirSync(made, { recursive: true });
    return made;
  }) as [string, string, string];
  const name = (i: number): string => `match-${String(i + 1).padStart(4, '0')}.json`;
  const warmFiles = half(1).map((match, i) => {
    const file = path.join(warmDir, name(i));
    fs.writeFileSync(file, JSON.stringify(match));
    fs.linkSync(file, path.join(bothDir, `a-${name(i)}`));
    return file;
  });
  warmFiles.slice(0, WARM_TAIL).forEach((file, i) => {
    fs.linkSync(file, path.join(bothDir, `c-${name(i)}`));
  });
  const inputs: Buffer[] = [];
  const telemetry: Buffer[] = [];
  half(0).forEach((match, i) => {
    const bytes = Buffer.from(JSON.stringify(match));
    fs.writeFileSync(path.join(dir, name(i)), bytes);
    fs.linkSync(path.join(dir, name(i)), path.join(bothDir, `b-${name(i)}`));
    inputs.push(bytes);
    telemetry.push(
      match.telemetry ? Buffer.from(JSON.stringify(match.telemetry)) : Buffer.alloc(0),
    );
  });
  return { profile, dir, warmFiles, bothDir, inputs, telemetry };
}

/** Files after the set in `bothDir`: more than a worker pool prepares ahead (2 per worker). */
export const WARM_TAIL = 8;

/** The floor of one pass over a set: CPU µs (this process) and wall ms. */
export interface FloorPass {
  cpuMicros: number;
  wallMs: number;
}

/**
 * Parses every input and gzips every telemetry file once (zlib's default level, as ingest
 * does), synchronously on this thread; the best of `passes` runs counts, since the floor is the
 * least this work can cost.
 */
export function measureFloor(set: MatchSet, passes = 3): FloorPass & { perCpuSecond: number } {
  let best: FloorPass | null = null;
  for (let pass = 0; pass < passes; pass++) {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    let sink = 0;
    set.inputs.forEach((input, i) => {
      const parsed = JSON.parse(input.toString('utf8')) as { id: string };
      sink += parsed.id.length;
      if (set.telemetry[i]!.length > 0) sink += zlib.gzipSync(set.telemetry[i]!).length;
    });
    const used = process.cpuUsage(cpu);
    const result = { cpuMicros: used.user + used.system, wallMs: performance.now() - wall };
    if (sink > 0 && (best === null || result.cpuMicros < best.cpuMicros)) best = result;
  }
  return { ...best!, perCpuSecond: perCpuSecond(set.inputs.length, best!.cpuMicros) ?? NaN };
}
