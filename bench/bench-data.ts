/**
 * The store the service is measured on: the demo data set (generated through the ingest
 * pipeline, as `npm start` does), its jobs run once (leaderboards, samples), and a bench API key
 * with a budget no run can exhaust. Generated once into a cache directory and reused while
 * nothing that decides what is stored can have changed: the directory is keyed by seed, scale,
 * the UTC day (the demo's 14 days end at the moment it is made, and retention counts from
 * there) and a digest of the sources under src/.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { addPlayerTwins } from '../src/demo/add-player-twins.ts';
import { populateDemo } from '../src/demo/populate-demo.ts';
import { JOBS } from '../src/jobs/index.ts';
import { runJobOnce } from '../src/jobs/scheduler.ts';
import { openRuntime } from '../src/runtime.ts';
import { createApiKey } from '../src/store/api-keys.ts';
import { ROOT } from './project-root.ts';

export interface BenchData {
  /** The DATA_DIR of the store (SQLite file, telemetry blobs). */
  dir: string;
  /** A key whose budget is never reached during a run. */
  apiKey: string;
  matches: number;
  players: number;
  /** When the demo was generated (epoch ms). */
  generatedAt: number;
  /** Wall-clock seconds the generation took (when it ran), twins included. */
  generationSeconds: number;
  /** Wall-clock seconds of growing the store with twins, when it was (`players`). */
  twinsSeconds?: number;
  reused: boolean;
}

/** The bench key's budget per minute: more than any run sends. */
export const BENCH_KEY_RATE_PER_MINUTE = 1_000_000_000;

/**
 * A digest of every file under src/ but the HTTP layer (src/http/, which serves the data and
 * makes none of it), so a changed ingest or store never reuses stale data while a change to
 * serving alone is measured on the data already generated.
 */
export function sourceDigest(root: string = ROOT): string {
  const hash = crypto.createHash('sha256');
  const files = fs
    .readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.startsWith(`http${path.sep}`))
    .sort();
  for (const file of files) {
    hash.update(file);
    hash.update(fs.readFileSync(path.join(root, 'src', file)));
  }
  return hash.digest('hex').slice(0, 12);
}

/**
 * The public base URL of every store and server of the bench, whatever port it listens on:
 * stored match documents are rendered for one base URL, and a server with another would render
 * and store each match again on its first request.
 */
export const BENCH_PUBLIC_BASE_URL = 'http://localhost:8080';

/** Environment of every runtime the bench opens on a data directory of its own. */
export function dataDirEnv(dir: string): Record<string, string> {
  return {
    DATA_DIR: dir,
    PUBLIC_BASE_URL: BENCH_PUBLIC_BASE_URL,
    DEMO_DATA: 'off',
    JOBS: 'off',
    LOG_LEVEL: 'warn',
  };
}

/**
 * Returns the cached data set for (seed, scale, players) under `cacheDir`, generating it first
 * when it is missing or stale; older data sets of the same seed, scale and players are removed.
 * With `players`, the demo is grown to that many players with twins of its own (src/demo/
 * add-player-twins.ts, as `gamedata demo --players` does) before its jobs run.
 */
export async function prepareBenchData(options: {
  cacheDir: string;
  seed: number;
  scale: number;
  players?: number | undefined;
  /** Use the newest ready data set of this seed and scale even if made by other sources. */
  reuseAny?: boolean;
  log: (line: string) => void;
}): Promise<BenchData> {
  const grown = options.players === undefined ? '' : `players${options.players}-`;
  const prefix = `seed${options.seed}-scale${options.scale}-${grown}`;
  const name = `${prefix}${new Date().toISOString().slice(0, 10)}-${sourceDigest()}`;
  const dir = path.join(options.cacheDir, name);
  const readyFile = path.join(dir, 'bench-ready.json');
  if (fs.existsSync(readyFile)) {
    const ready = JSON.parse(fs.readFileSync(readyFile, 'utf8')) as Omit<BenchData, 'reused'>;
    options.log(`Bench data: reusing ${dir}`);
    return { ...ready, dir, reused: true };
  }
  const other = options.reuseAny === true ? newestReady(options.cacheDir, prefix) : null;
  if (other !== null) {
    const ready = JSON.parse(fs.readFileSync(path.join(other, 'bench-ready.json'), 'utf8')) as Omit<
      BenchData,
      'reused'
    >;
    options.log(`Bench data: reusing ${other}, made by other sources (--reuse-data)`);
    return { ...ready, dir: other, reused: true };
  }

  fs.mkdirSync(options.cacheDir, { recursive: true });
  for (const entry of fs.readdirSync(options.cacheDir)) {
    if (isDataSetOf(entry, prefix) || entry.startsWith(`${name}.`)) {
      fs.rmSync(path.join(options.cacheDir, entry), { recursive: true, force: true });
    }
  }
  // Built under another name and renamed when complete: an interrupted run leaves no half store.
  const partial = `${dir}.partial`;
  fs.mkdirSync(partial, { recursive: true });
  options.log(`Bench data: generating the demo at scale ${options.scale} in ${partial}…`);
  const runtime = await openRuntime(loadConfig(dataDirEnv(partial)));
  let ready: Omit<BenchData, 'reused' | 'dir'>;
  try {
    const started = performance.now();
    const demo = await populateDemo(runtime, {
      seed: options.seed,
      scale: options.scale,
      now: runtime.clock.now(),
      progress: process.stderr.isTTY === true,
    });
    let players = demo.players;
    let twinsSeconds: number | undefined;
    if (options.players !== undefined) {
      options.log(`Bench data: growing the store to ${options.players} players with twins…`);
      const twins = await addPlayerTwins(runtime.store, options.players);
      players = twins.after;
      twinsSeconds = twins.ms / 1000;
    }
    for (const job of JOBS) {
      const result = await runJobOnce(runtime, job, `bench-${process.pid}`);
      if ('error' in result) throw new Error(`job ${job.name} failed: ${result.error}`);
    }
    const { key } = await createApiKey(runtime.store.db, {
      name: 'bench',
      ratePerMinute: BENCH_KEY_RATE_PER_MINUTE,
      now: runtime.clock.now(),
    });
    ready = {
      apiKey: key,
      matches: demo.matches,
      players,
      generatedAt: runtime.clock.now(),
      generationSeconds: (performance.now() - started) / 1000,
      ...(twinsSeconds === undefined ? {} : { twinsSeconds }),
    };
  } finally {
    await runtime.close();
  }
  fs.writeFileSync(path.join(partial, 'bench-ready.json'), JSON.stringify(ready));
  fs.renameSync(partial, dir);
  const twins =
    ready.twinsSeconds === undefined ? '' : ` (twins ${ready.twinsSeconds.toFixed(1)} s)`;
  options.log(
    `  ${ready.matches} matches, ${ready.players} players in ${ready.generationSeconds.toFixed(1)} s${twins}`,
  );
  return { ...ready, dir, reused: false };
}

/**
 * Whether the directory `entry` is a data set named with `prefix` (its day follows): the demo's
 * own `seed1-scale1-` must not take `seed1-scale1-players1000000-` for one of its own.
 */
export function isDataSetOf(entry: string, prefix: string): boolean {
  return entry.startsWith(prefix) && /^\d{4}-/.test(entry.slice(prefix.length));
}

/** The most recently generated complete data set under `cacheDir` named with `prefix`. */
function newestReady(cacheDir: string, prefix: string): string | null {
  if (!fs.existsSync(cacheDir)) return null;
  const ready = fs
    .readdirSync(cacheDir)
    .filter((entry) => isDataSetOf(entry, prefix) && !entry.endsWith('.partial'))
    .map((entry) => path.join(cacheDir, entry, 'bench-ready.json'))
    .filter((file) => fs.existsSync(file))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  return ready[0] === undefined ? null : path.dirname(ready[0]);
}

/**
 * A scratch copy of a data set for runs that change it (jobs purge and rebuild): the database
 * is copied, the telemetry files hard-linked (nothing rewrites a blob in place; a purge only
 * unlinks the copy's names).
 */
export function scratchCopy(data: BenchData, into: string): string {
  fs.cpSync(data.dir, into, {
    recursive: true,
    filter: (source) => !source.startsWith(path.join(data.dir, 'blobs')),
  });
  const blobs = path.join(data.dir, 'blobs');
  if (fs.existsSync(blobs)) linkTree(blobs, path.join(into, 'blobs'));
  return into;
}

function linkTree(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else fs.linkSync(source, target);
  }
}
