import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { parseExposition, sampleValue, type PromSample } from '../helpers/prometheus.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { createApiKey } from '../../src/store/api-keys.ts';
import { findTelemetryAsset } from '../../src/store/telemetry.ts';
import { startScheduler, type Job } from '../../src/jobs/scheduler.ts';

const REQUESTS = 'gamedata_http_requests_total';
const MATCH_ROUTE = '/shards/:shard/matches/:matchId';

async function scrape(t: TestApp, headers: Record<string, string> = {}): Promise<PromSample[]> {
  const response = await t.app.inject({ url: '/metrics', headers });
  assert.equal(response.statusCode, 200, response.body);
  assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return parseExposition(response.body);
}

for (const database of testDatabases) {
  describe(`GET /metrics (${database.name})`, () => {
    let t: TestApp;
    let matchId: string;
    before(async () => {
      t = await createTestApp(database);
      const input = makeMatchInput({
        seed: 'metrics',
        telemetry: true,
        overrides: { createdAt: new Date(t.clock.now() - 3_600_000).toISOString() },
      });
      await ingestMatch(t, input);
      matchId = input.id;
    });
    after(() => t.close());

    test('counts and times requests by route template and status, never by raw URL', async () => {
      for (const id of ['one', 'two', 'three']) {
        await t.app.inject({ url: `/shards/pc-b/matches/missing-${id}` });
      }
      for (const url of ['/a', '/b/c', '/d?x=1']) await t.app.inject({ url });
      const samples = await scrape(t);
      const labels = { method: 'GET', route: MATCH_ROUTE, status: '404' };
      assert.equal(sampleValue(samples, REQUESTS, labels), 3);
      assert.equal(sampleValue(samples, 'gamedata_http_request_duration_seconds_count', labels), 3);
      const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
      assert.equal(sampleValue(samples, REQUESTS, unmatched), 3);
      for (const sample of samples) {
        assert.ok(!JSON.stringify(sample.labels).includes('missing-'), sample.name);
      }
    });

    test('counts match cache hits and misses', async () => {
      const before = await scrape(t);
      const lookups = (samples: PromSample[], result: string): number =>
        sampleValue(samples, 'gamedata_cache_lookups_total', { cache: 'match', result }) ?? 0;
      for (let i = 0; i < 3; i++) {
        const response = await t.app.inject({ url: `/shards/pc-b/matches/${matchId}` });
        assert.equal(response.statusCode, 200);
      }
      const after = await scrape(t);
      assert.equal(lookups(after, 'miss') - lookups(before, 'miss'), 1);
      assert.equal(lookups(after, 'hit') - lookups(before, 'hit'), 2);
      assert.ok(sampleValue(after, 'gamedata_cache_bytes', { cache: 'match' })! > 0);
    });

    test('counts rate-limit refusals by route', async () => {
      const { key } = await createApiKey(t.store.db, {
        name: 'metrics-limited',
        ratePerMinute: 1,
        now: t.clock.now(),
      });
      const headers = { authorization: `Bearer ${key}` };
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await t.app.inject({ url: '/shards/pc-b/seasons', headers })).statusCode);
      }
      assert.deepEqual(statuses, [200, 429, 429]);
      const samples = await scrape(t);
      assert.equal(
        sampleValue(samples, 'gamedata_rate_limit_refusals_total', {
          route: '/shards/:shard/seasons',
        }),
        2,
      );
    });

    test('counts blob store failures, a read failing part-way included', async () => {
      const document = (await t.app.inject({ url: `/shards/pc-b/matches/${matchId}` })).json();
      const url = new URL(
        document.included.find((r: { type: string }) => r.type === 'asset').attributes.URL,
      );
      const assetId = /([^/]+)-telemetry\.json$/.exec(url.pathname)![1]!;
      const { telemetryKey } = (await findTelemetryAsset(t.store.db, assetId))!;
      // A directory where the file was: it opens, and every read of it fails (EISDIR).
      const file = path.join(t.config.dataDir, 'blobs', telemetryKey!);
      fs.rmSync(file);
      fs.mkdirSync(file);
      const response = await t.app.inject({
        url: url.pathname,
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.notEqual(response.statusCode, 200);
      const samples = await scrape(t);
      assert.equal(
        sampleValue(samples, 'gamedata_blob_store_errors_total', { operation: 'get' }),
        1,
      );
    });

    test('records ingest results and durations on the ingest routes', async () => {
      const { key } = await createApiKey(t.store.db, {
        name: 'metrics-ingest',
        ratePerMinute: 1_000,
        now: t.clock.now(),
        scope: 'ingest',
      });
      const post = (body: unknown) =>
        t.app.inject({
          method: 'POST',
          url: '/ingest/matches',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
      const input = makeMatchInput({
        seed: 'metrics-ingest',
        overrides: { createdAt: new Date(t.clock.now() - 7_200_000).toISOString() },
      });
      assert.equal((await post(input)).statusCode, 201);
      assert.equal((await post(input)).statusCode, 200);
      assert.equal((await post({ ...input, gameMode: 42 })).statusCode, 400);
      const samples = await scrape(t);
      const route = '/ingest/matches';
      const count = (result: string): number | undefined =>
        sampleValue(samples, 'gamedata_ingest_requests_total', { route, result });
      assert.deepEqual(['created', 'duplicate', 'rejected', 'failed'].map(count), [
        1,
        1,
        1,
        undefined,
      ]);
      assert.equal(
        sampleValue(samples, 'gamedata_ingest_duration_seconds_count', {
          route,
          result: 'created',
        }),
        1,
      );
    });

    test('records scheduled job runs with their outcome and duration', async () => {
      const job = (name: string, fails: boolean): Job => ({
        name,
        intervalMs: () => 60_000,
        outputMissing: async () => false,
        async run() {
          if (fails) throw new Error('no luck');
          return 'done';
        },
      });
      const scheduler = startScheduler(t, [job('good', false), job('bad', true)], {
        owner: 'metrics-test',
        tickMs: 60_000,
        log: { info: () => {}, error: () => {} },
        autostart: false,
        observer: t.app.metrics!.jobObserver,
      });
      await scheduler.tick();
      await scheduler.stop();
      const samples = await scrape(t);
      const runs = (job: string, outcome: string): number | undefined =>
        sampleValue(samples, 'gamedata_job_runs_total', { job, outcome });
      assert.equal(runs('good', 'succeeded'), 1);
      assert.equal(runs('bad', 'failed'), 1);
      assert.equal(
        sampleValue(samples, 'gamedata_job_duration_seconds_count', {
          job: 'good',
          outcome: 'succeeded',
        }),
        1,
      );
    });

    test('reports the database pool where there is one, and the process metrics', async () => {
      const samples = await scrape(t);
      const total = sampleValue(samples, 'gamedata_db_pool_connections', { state: 'total' });
      if (database.name === 'postgres') {
        assert.ok(total !== undefined && total >= 1, `pool total ${total}`);
        assert.equal(sampleValue(samples, 'gamedata_db_pool_connections', { state: 'waiting' }), 0);
      } else {
        assert.equal(total, undefined);
      }
      for (const name of [
        'process_cpu_user_seconds_total',
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_seconds',
      ]) {
        assert.ok(
          samples.some((s) => s.name === name),
          `${name} is exported`,
        );
      }
    });

    test('is served whatever the client accepts, to any origin', async () => {
      const response = await t.app.inject({
        url: '/metrics',
        headers: { accept: 'text/plain', origin: 'https://grafana.example' },
      });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['access-control-allow-origin'], '*');
    });
  });
}

test('apps in one process keep their own series', async () => {
  const [first, second] = [
    await createTestApp(testDatabases[0]!),
    await createTestApp(testDatabases[0]!),
  ];
  try {
    await first.app.inject({ url: '/status' });
    await first.app.inject({ url: '/status' });
    const labels = { method: 'GET', route: '/status', status: '200' };
    assert.equal(sampleValue(await scrape(first), REQUESTS, labels), 2);
    assert.equal(sampleValue(await scrape(second), REQUESTS, labels), undefined);
  } finally {
    await first.close();
    await second.close();
  }
});

test('METRICS_TOKEN guards /metrics; METRICS=off removes it', async () => {
  const token = 'scrape-token-0123456789';
  const guarded = await createTestApp(testDatabases[0]!, { METRICS_TOKEN: token });
  const off = await createTestApp(testDatabases[0]!, { METRICS: 'off' });
  try {
    const refused = await guarded.app.inject({ url: '/metrics' });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().errors[0].title, 'Unauthorized');
    const wrong = await guarded.app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${token}x` },
    });
    assert.equal(wrong.statusCode, 401);
    await scrape(guarded, { authorization: `Bearer ${token}` });

    const missing = await off.app.inject({ url: '/metrics' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().errors[0].title, 'Not Found');
    assert.equal(off.app.metrics, null);
  } finally {
    await guarded.close();
    await off.close();
  }
});
