/**
 * `npx tsx bench/demo-leaderboards.ts [--scale 1] [--seed 1] [--now <ISO>] [--database <url>]`:
 * loads the demo data set, runs the leaderboard job once and reads every leaderboard page back
 * through the real app, printing how full each board is and what building and serving cost.
 * Exits 1 unless every standard mode on pc-b has ten full pages (1000 distinct players) — what
 * a fresh `npm start` promises. Too slow for the test suite at scale 1 (the demo alone takes
 * a minute or more), hence a script.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { buildApp } from '../src/app.ts';
import { directoryBlobStore } from '../src/blobs/directory-blob-store.ts';
import { fixedClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { populateDemo } from '../src/demo/populate-demo.ts';
import { STANDARD_GAME_MODES } from '../src/domain/game-modes.ts';
import { regionsOf } from '../src/domain/shards.ts';
import { rebuildLeaderboards } from '../src/jobs/rebuild-leaderboards.ts';
import { createApiKey } from '../src/store/api-keys.ts';
import { syncSeasons } from '../src/store/seasons.ts';
import { openStore } from '../src/store/store.ts';

const positive = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
};

const options = new Command('demo-leaderboards')
  .option('--scale <factor>', 'demo data scale', positive, 1)
  .option('--seed <n>', 'demo data seed', positive, 1)
  .option('--now <iso>', 'the instant the demo is generated for', new Date().toISOString())
  .option('--database <url>', 'store URL (default: a SQLite file in a temporary directory)')
  .parse()
  .opts<{ scale: number; seed: number; now: string; database?: string }>();

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-leaderboards-'));
process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));

const now = Date.parse(options.now);
const clock = fixedClock(now);
const config = loadConfig({ DATA_DIR: dataDir, JOBS: 'off', DEMO_DATA: 'off' });
const store = await openStore(options.database ?? `sqlite:${path.join(dataDir, 'bench.sqlite')}`);
const blobs = directoryBlobStore(path.join(dataDir, 'blobs'));
const deps = { config, store, blobs, clock };
const ms = (started: number): string => `${Math.round(performance.now() - started)} ms`;

await syncSeasons(store, now);
let started = performance.now();
const demo = await populateDemo(deps, {
  seed: options.seed,
  scale: options.scale,
  now,
  progress: false,
});
console.log(`demo: ${demo.matches} matches, ${demo.players} players in ${ms(started)}`);

started = performance.now();
const summary = await rebuildLeaderboards(deps);
console.log(
  `job: ${summary.builds} builds of ${summary.seasons.map((s) => `${s.platform} ${s.seasonId}`).join(', ')}; ` +
    `${summary.candidates} ranked players, ${summary.entries} entries stored, in ${ms(started)}`,
);

const app = await buildApp({ ...deps, logger: false });
const { key } = await createApiKey(store.db, { name: 'bench', ratePerMinute: 1_000_000, now });
const headers = { authorization: `Bearer ${key}` };
const seasonId = summary.seasons.find((s) => s.platform === 'pc-b')?.seasonId ?? '';

interface Page {
  included: Array<{ id: string; attributes: { rank: number; stats: { tier: string } } }>;
}
async function page(url: string): Promise<Page> {
  const response = await app.inject({ url, headers });
  if (response.statusCode !== 200)
    throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}

let allFull = true;
console.log(
  '\nplatform  mode       players  full pages  tiers (top 1000)                 regions (pc-b: top 500 each)',
);
for (const platform of ['pc-b', 'pc-a'] as const) {
  for (const mode of STANDARD_GAME_MODES) {
    const ids = new Set<string>();
    const tiers = new Map<string, number>();
    let fullPages = 0;
    let consecutive = true;
    for (let n = 0; n <= 9; n++) {
      const { included } = await page(`/shards/${platform}/leaderboards/${mode}?page[number]=${n}`);
      if (included.length === 100) fullPages++;
      included.forEach((player, i) => {
        consecutive &&= player.attributes.rank === n * 100 + i + 1;
        ids.add(player.id);
        tiers.set(player.attributes.stats.tier, (tiers.get(player.attributes.stats.tier) ?? 0) + 1);
      });
    }
    const regional: string[] = [];
    if (platform === 'pc-b') {
      for (const region of regionsOf('pc-b')) {
        const { included } = await page(`/shards/${region}/leaderboards/${seasonId}/${mode}`);
        regional.push(`${region.slice(3)} ${included.length}`);
      }
    }
    const full = fullPages === 10 && ids.size === 1000 && consecutive;
    if (platform === 'pc-b' && !full) allFull = false;
    const tierText = [...tiers].map(([tier, count]) => `${tier} ${count}`).join(', ');
    console.log(
      `${platform.padEnd(9)} ${mode.padEnd(10)} ${String(ids.size).padStart(7)}  ${String(fullPages).padStart(10)}  ` +
        `${tierText.padEnd(32)} ${regional.join(', ')}`,
    );
  }
}

// Serving cost: a cold page renders once per build, warm ones are stored bytes. inject() has
// its own overhead, so the unkeyed, constant /status document is measured alongside.
async function perSecond(url: string, extra: Record<string, string>): Promise<number> {
  const rounds = 2000;
  const started = performance.now();
  for (let i = 0; i < rounds; i++)
    await app.inject({ url, headers: { ...extra, 'accept-encoding': 'gzip' } });
  return (rounds * 1000) / (performance.now() - started);
}
started = performance.now();
await page(`/shards/pc-b/leaderboards/squad-fpp?page[number]=7`);
console.log(`\ncold page (query, render, gzip): ${ms(started)}`);
const warm = await perSecond('/shards/pc-b/leaderboards/squad-fpp?page[number]=7', headers);
const status = await perSecond('/status', {});
console.log(
  `warm page through inject: ${warm.toFixed(0)} requests/s; /status: ${status.toFixed(0)} requests/s`,
);

await app.close();
await store.close();
console.log(
  allFull
    ? '\nOK: every pc-b mode has ten full pages'
    : '\nFAIL: some pc-b mode has fewer than 1000 players',
);
process.exitCode = allFull ? 0 : 1;
