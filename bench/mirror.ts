/**
 * `npx tsx bench/mirror.ts`: what mirroring an upstream costs and achieves, against a second
 * instance of this service on 127.0.0.1 (demo data, samples built, two upstream keys):
 *
 * 1. a player lookup the mirror has not seen (fetched and recorded; its matches are archived in
 *    the background) against the same lookup again (served from the store, no upstream
 *    request), median of several players, and how long the background archive then took;
 * 2. crawl throughput: one `gamedata mirror` pass over every shard's sample, matches per second
 *    with their telemetry;
 * 3. budget use: a watch list larger than the keys allow in one window, crawled; limited
 *    requests per full window against what the keys allow, and the upstream's 429s.
 *
 * Both instances run in this process on the real clock, each with an in-memory SQLite store.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command, Option } from 'commander';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/clock.ts';
import { openBlobStore } from '../src/blobs/open-blob-store.ts';
import { openStore } from '../src/store/store.ts';
import { syncSeasons } from '../src/store/seasons.ts';
import { createApiKey } from '../src/store/api-keys.ts';
import { populateDemo } from '../src/demo/populate-demo.ts';
import { runJobOnce } from '../src/jobs/scheduler.ts';
import { buildSamplesJob } from '../src/jobs/build-samples.ts';
import { createMirror } from '../src/upstream/mirror.ts';
import { DEFAULT_CRAWL_SHARDS, crawlUpstream } from '../src/upstream/mirror-crawl.ts';
import { watchPlayers } from '../src/store/mirror-state.ts';

const options = new Command('bench/mirror.ts')
  .addOption(new Option('--scale <x>', 'demo scale of the upstream').default(0.1).argParser(Number))
  .addOption(
    new Option('--rpm <n>', 'requests a minute of each of the two upstream keys')
      .default(30)
      .argParser(Number),
  )
  .addOption(new Option('--players <n>', 'player lookups timed').default(6).argParser(Number))
  .parse()
  .opts<{ scale: number; rpm: number; players: number }>();
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-bench-mirror-'));
process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }));

async function instance(name: string, env: Record<string, string>) {
  const dataDir = path.join(work, name);
  const config = loadConfig({ DATA_DIR: dataDir, ACCESS_LOG: 'off', METRICS: 'off', ...env });
  const store = await openStore('sqlite::memory:');
  await syncSeasons(store, systemClock.now());
  const blobs = await openBlobStore(config);
  const deps = { config, store, blobs, clock: systemClock };
  // The app's mirror is the crawl's too (one budget), as `serve` shares it with its job.
  const mirror = createMirror(deps);
  return { deps, mirror, app: await buildApp({ ...deps, mirror, logger: false }) };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- documents read ad hoc
type Json = any;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function main(): Promise<void> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const upstreamUrl = `http://127.0.0.1:${port}`;
  const upstream = await instance('upstream', { PUBLIC_BASE_URL: upstreamUrl });
  log(`upstream: demo at scale ${options.scale} …`);
  await populateDemo(upstream.deps, {
    seed: 1,
    scale: options.scale,
    now: Date.now(),
    progress: false,
  });
  await runJobOnce(upstream.deps, buildSamplesJob, 'bench');
  const keys: string[] = [];
  for (const name of ['mirror-a', 'mirror-b']) {
    const created = await createApiKey(upstream.deps.store.db, {
      name,
      ratePerMinute: options.rpm,
      now: Date.now(),
    });
    keys.push(created.key);
  }
  const { key: ownKey } = await createApiKey(upstream.deps.store.db, {
    name: 'bench',
    ratePerMinute: 1e9,
    now: Date.now(),
  });
  let refused = 0;
  upstream.app.addHook('onResponse', async (_request, reply) => {
    if (reply.statusCode === 429) refused++;
  });
  await upstream.app.listen({ port, host: '127.0.0.1' });

  const mirrorEnv = {
    UPSTREAM_URL: upstreamUrl,
    UPSTREAM_API_KEYS: keys.join(','),
    RETENTION_DAYS: '0',
  };
  const mirror = await instance('mirror', mirrorEnv);
  const { key: mirrorKey } = await createApiKey(mirror.deps.store.db, {
    name: 'bench',
    ratePerMinute: 1e9,
    now: Date.now(),
  });

  // 1. Player lookups: uncached, then cached.
  const sample: Json = await fetch(`${upstreamUrl}/shards/pc-b/samples`, {
    headers: { authorization: `Bearer ${ownKey}` },
  }).then((r) => r.json());
  const matchId = sample.data.relationships.matches.data[0].id;
  const match: Json = await fetch(`${upstreamUrl}/shards/pc-b/matches/${matchId}`).then((r) =>
    r.json(),
  );
  const ids: string[] = match.included
    .filter((r: { type: string }) => r.type === 'participant')
    .map((r: { attributes: { stats: { playerId: string } } }) => r.attributes.stats.playerId)
    .filter((id: string) => id.startsWith('account.'))
    .slice(0, options.players);
  const uncached: number[] = [];
  const cached: number[] = [];
  for (const id of ids) {
    for (const times of [uncached, cached]) {
      const t0 = performance.now();
      const response = await mirror.app.inject({
        url: `/shards/pc-b/players/${id}`,
        headers: { authorization: `Bearer ${mirrorKey}` },
      });
      times.push(performance.now() - t0);
      if (response.statusCode !== 200)
        throw new Error(`player lookup answered ${response.statusCode}`);
    }
  }

  const lookupsEnded = performance.now();
  const client = mirror.mirror!;
  await client.players.idle();
  const backgroundMs = performance.now() - lookupsEnded;
  const backgroundMatches = await mirror.deps.store.db
    .selectFrom('matches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();

  // 2. A crawl pass of every shard's sample.
  const crawlStartedWith = Number(backgroundMatches.n);
  const crawl = await crawlUpstream(mirror.deps, client, { shards: DEFAULT_CRAWL_SHARDS });
  const seconds = crawl.ms / 1000;

  // 3. Budget use: a watch list of more lookups than two windows allow.
  const names = Array.from({ length: options.rpm * 2 * 10 * 2 + 50 }, (_, i) => `Watched${i}`);
  await watchPlayers(mirror.deps.store.db, 'pc-b', names, Date.now());
  const before = { ...client.client.budgets.counts };
  const watchStarted = Date.now();
  await crawlUpstream(mirror.deps, client, { shards: [] });
  const watchSeconds = (Date.now() - watchStarted) / 1000;
  const after = client.client.budgets.counts;
  const sent = after.sent - before.sent;
  // Windows that ended while the crawl had lookups left: what they left unspent.
  const unspent = after.unspent - before.unspent;

  // 4. The crawler's match step over every match the upstream holds, 4 at a time.
  const all = await upstream.deps.store.db
    .selectFrom('matches')
    .select(['id', 'platform'])
    .execute();
  const archiveStarted = Date.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < all.length) {
      const row = all[next++]!;
      await client.matches.fetch(row.platform, row.id);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  const archiveSeconds = (Date.now() - archiveStarted) / 1000;
  const archived = await mirror.deps.store.db
    .selectFrom('matches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('telemetry_key', 'is not', null)
    .executeTakeFirstOrThrow();

  const lines = [
    `| Measure | Figure |`,
    `| --- | --- |`,
    `| Player lookup, uncached (fetched and recorded), median of ${ids.length} | ${median(uncached).toFixed(1)} ms |`,
    `| Player lookup, cached (no upstream request), median of ${ids.length} | ${median(cached).toFixed(2)} ms |`,
    `| Their ${crawlStartedWith} matches archived in the background, done after the last answer by | ${backgroundMs.toFixed(0)} ms |`,
    `| Crawl pass: ${crawl.matches.stored} matches with telemetry from ${crawl.samples} samples | ${seconds.toFixed(1)} s, ${(crawl.matches.stored / seconds).toFixed(1)} matches/s |`,
    `| Watch-list crawl: ${names.length} names in ${Math.ceil(names.length / 10)} lookups, ${keys.length} keys × ${options.rpm}/min | ${watchSeconds.toFixed(0)} s |`,
    `| Budget used by the watch-list crawl (sent ÷ (sent + left unspent in windows that ended)) | ${sent} sent, ${unspent} unspent: ${((100 * sent) / Math.max(1, sent + unspent)).toFixed(1)} % |`,
    `| Archive of every upstream match with telemetry (${all.length}, ${Number(archived.n)} held after) | ${archiveSeconds.toFixed(1)} s, ${(all.length / archiveSeconds).toFixed(1)} matches/s |`,
    `| Upstream 429s | ${refused} |`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await mirror.app.close();
  await upstream.app.close();
  await mirror.deps.store.close();
  await upstream.deps.store.close();
}

await main();
