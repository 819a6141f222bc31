/**
 * The command line of `npm run bench` (`npm run bench -- --help`). Every option has a default
 * that measures everything issue 10 names; the rest narrow a run down while developing.
 */
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ROW_IDS } from './endpoint-catalogue.ts';

/** Jobs measured under load; `ingest` is matches posted to the service meanwhile. */
export const JOB_NAMES = ['seasons', 'retention', 'leaderboards', 'samples', 'ingest'] as const;

export interface BenchOptions {
  /** Row ids to measure; null: all; empty: none. */
  only: Set<string> | null;
  mode: 'hot' | 'spread' | 'both';
  duration: number;
  slices: number;
  warmup: number;
  connections: number;
  threads: number;
  encoding: 'gzip' | 'identity';
  spread: number;
  scale: number;
  seed: number;
  /** Players the data set is grown to with twins of the demo's (`demo --players`); none: as generated. */
  players: number | undefined;
  dataDir: string;
  reuseData: boolean;
  json: string | undefined;
  skipIngest: boolean;
  skipStoreSize: boolean;
  ingestMatches: number;
  ingestDemoScale: number;
  /** Telemetry profiles the ingest paths are measured with, and whether the demo is. */
  ingestParts: string[];
  jobs: string[];
  jobWindow: number;
  databaseUrl: string | undefined;
  cpuProf: string | undefined;
  pin: boolean;
  timeout: number;
}

const positive = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
};
const positiveInteger = (value: string): number => {
  const n = positive(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError('expected a positive integer');
  return n;
};
/** A comma-separated subset of `known`; `none` is the empty set. */
/** The ingest paths on default or full-size telemetry (when the demo offers it), and the demo. */
const INGEST_PARTS = ['default', 'full', 'demo'] as const;

const subsetOf =
  (known: readonly string[]) =>
  (value: string): string[] => {
    if (value === 'none') return [];
    const names = value.split(',').map((name) => name.trim());
    const unknown = names.filter((name) => !known.includes(name));
    if (unknown.length > 0) {
      throw new InvalidArgumentError(`unknown ${unknown.join(', ')}; known: ${known.join(', ')}`);
    }
    return names;
  };

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const program = new Command('npm run bench --')
    .description(
      'Measures the service against a bare node:http server serving the same bytes (every ' +
        'endpoint, hot and spread), variants of it, jobs under load, ingest against its floor ' +
        'and the store size.',
    )
    .option(
      '--only <rows>',
      `serving rows, comma-separated, or none: ${ROW_IDS.join(', ')}`,
      subsetOf(ROW_IDS),
    )
    .addOption(
      new Option('--mode <mode>', 'one path per row, many, or both')
        .choices(['hot', 'spread', 'both'])
        .default('both'),
    )
    .option('-d, --duration <seconds>', 'measured seconds per side of a row', positive, 6)
    .option('--slices <n>', 'alternating slices the duration is split into', positiveInteger, 3)
    .option('--warmup <seconds>', 'unmeasured seconds per side before a row', positive, 1)
    .option('-c, --connections <n>', 'wrk connections', positiveInteger, 32)
    .option('--threads <n>', 'wrk threads', positiveInteger, 1)
    .addOption(
      new Option('--encoding <coding>', 'Accept-Encoding of every request')
        .choices(['gzip', 'identity'])
        .default('gzip'),
    )
    .option('--spread <n>', 'distinct paths of a spread row', positiveInteger, 100)
    .option('--scale <x>', 'demo scale of the measured store', positive, 1)
    .option('--seed <n>', 'demo seed', positiveInteger, 1)
    .option(
      '--players <n>',
      'grow the measured store to this many players with twins of the demo players (e.g. 1000000)',
      positiveInteger,
    )
    .option(
      '--data-dir <dir>',
      'cache of generated bench data, kept between runs',
      path.join(os.tmpdir(), 'gamedata-bench'),
    )
    .option(
      '--reuse-data',
      'measure on the newest cached data set of this seed and scale, even one made by other sources',
      false,
    )
    .option('--json <file>', 'also write every result as JSON into this file')
    .option('--skip-ingest', 'leave out the ingest measurements', false)
    .option(
      '--skip-store-size',
      'leave out the store size; with no serving row and no job, no serving data set is made',
      false,
    )
    .option(
      '--ingest-matches <n>',
      'demo matches ingested by each ingest path',
      positiveInteger,
      40,
    )
    .option(
      '--ingest-demo-scale <x>',
      'scale of the `gamedata demo` run held to the goal (a run at 0.05 is shown as its first pass)',
      positive,
      0.3,
    )
    .option(
      '--ingest-parts <names>',
      `ingest measurements made, comma-separated: ${INGEST_PARTS.join(', ')}`,
      subsetOf(INGEST_PARTS),
      [...INGEST_PARTS],
    )
    .option(
      '--jobs <names>',
      `jobs run under load, comma-separated, or none: ${JOB_NAMES.join(', ')}`,
      subsetOf(JOB_NAMES),
      [...JOB_NAMES],
    )
    .option('--job-window <seconds>', 'seconds of load measured without a job', positive, 3)
    .option(
      '--database-url <url>',
      'also load the demo into PostgreSQL (a new database, dropped after) and report its size',
    )
    .option(
      '--cpu-prof <dir>',
      'write V8 CPU profiles of the measured processes into this directory',
    )
    .option('--no-pin', 'do not pin the servers and wrk to separate CPUs')
    .option('--timeout <seconds>', 'stop everything and fail after this long', positive, 2400)
    .parse(argv, { from: 'user' });
  const raw = program.opts<Omit<BenchOptions, 'only'> & { only?: string[] }>();
  return { ...raw, only: raw.only === undefined ? null : new Set(raw.only) };
}
