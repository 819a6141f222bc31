import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp } from '../helpers/app.ts';
import { createApiKey } from '../../src/store/api-keys.ts';
import { buildApp } from '../../src/app.ts';

const database = testDatabases[0]!;

async function keyWithBudget(
  app: { store: { db: Parameters<typeof createApiKey>[0] }; clock: { now(): number } },
  rpm: number,
) {
  const { key } = await createApiKey(app.store.db, {
    name: `rpm-${rpm}`,
    ratePerMinute: rpm,
    now: app.clock.now(),
  });
  return { authorization: `Bearer ${key}` };
}

const seasons = (app: FastifyInstance, headers: Record<string, string>) =>
  app.inject({ url: '/shards/pc-b/seasons', headers });

test('keyed responses carry integer limit headers, Reset in UNIX seconds beside Date', async () => {
  const t = await createTestApp(database);
  try {
    const headers = await keyWithBudget(t, 3);
    const response = await seasons(t.app, headers);
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['x-ratelimit-limit'], '3');
    assert.equal(response.headers['x-ratelimit-remaining'], '2');
    const reset = Number(response.headers['x-ratelimit-reset']);
    const date = Date.parse(String(response.headers.date)) / 1000;
    assert.ok(Number.isInteger(reset));
    assert.ok(
      reset - date > 0 && reset - date <= 60,
      `reset ${reset} should be within a minute of ${date}`,
    );
  } finally {
    await t.close();
  }
});

test('over the budget: 429 JSON:API error with Retry-After and the limit headers', async () => {
  const t = await createTestApp(database);
  try {
    const headers = await keyWithBudget(t, 2);
    await seasons(t.app, headers);
    await seasons(t.app, headers);
    const refused = await seasons(t.app, headers);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().errors[0].title, 'Too Many Requests');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assert.ok(Number(refused.headers['x-ratelimit-reset']) > 1_700_000_000);
    // Another key has its own budget.
    assert.equal((await seasons(t.app, await keyWithBudget(t, 2))).statusCode, 200);
  } finally {
    await t.close();
  }
});

test('status, matches and telemetry are neither keyed nor limited', async () => {
  const t = await createTestApp(database);
  try {
    const response = await t.app.inject({ url: '/status' });
    assert.equal(response.headers['x-ratelimit-limit'], undefined);
    const match = await t.app.inject({ url: `/shards/pc-b/matches/${crypto.randomUUID()}` });
    assert.equal(match.statusCode, 404);
    assert.equal(match.headers['x-ratelimit-limit'], undefined);
  } finally {
    await t.close();
  }
});

test(
  "two instances on one Redis share a key's budget",
  { skip: !process.env.REDIS_URL_TEST },
  async () => {
    const t = await createTestApp(database);
    const redis = new Redis(process.env.REDIS_URL_TEST!);
    const second = await buildApp({ ...t, redis, logger: false });
    const firstWithRedis = await buildApp({ ...t, redis, logger: false });
    try {
      const headers = await keyWithBudget(t, 3);
      assert.equal((await seasons(firstWithRedis, headers)).headers['x-ratelimit-remaining'], '2');
      assert.equal((await seasons(second, headers)).headers['x-ratelimit-remaining'], '1');
      assert.equal((await seasons(firstWithRedis, headers)).headers['x-ratelimit-remaining'], '0');
      assert.equal((await seasons(second, headers)).statusCode, 429);
    } finally {
      await second.close();
      await firstWithRedis.close();
      redis.disconnect();
      await t.close();
    }
  },
);
