/**
 * Two mirror instances (two upstream clients, each with its own Redis connection) sharing one
 * upstream key through one redis-server: together they never send more than the key's budget,
 * so the upstream answers no 429 — while two instances counting alone do cause 429s. With Redis
 * gone an instance counts alone at once: no hang, no failure.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { startTestUpstream, type TestUpstream } from '../helpers/upstream.ts';
import { hasRedisServer, startRedis, type RedisProcess } from '../faults/fault-helpers.ts';
import { createApiKey } from '../../src/store/api-keys.ts';
import { connectRedis } from '../../src/redis-client.ts';
import type { Redis } from 'ioredis';
import { SharedKeyBudgets } from '../../src/upstream/shared-key-budget.ts';
import { KeyBudgets } from '../../src/upstream/key-budget.ts';
import { UpstreamBusyError, UpstreamClient } from '../../src/upstream/upstream-client.ts';
import type { UpstreamConfig } from '../../src/config.ts';

const skip = hasRedisServer() ? false : 'needs redis-server on PATH';
const BUDGET = 6;
const LIMITED = '/shards/pc-b/seasons';

describe('upstream key budgets shared through Redis', { skip }, () => {
  let upstream: TestUpstream;
  let redisServer: RedisProcess;
  const connections: Redis[] = [];

  const config = (key: string): UpstreamConfig => ({
    url: upstream.url,
    keys: [key],
    timeoutMs: 5_000,
    ttlMs: { players: 60_000, stats: 60_000, lists: 60_000 },
  });
  const newKey = async (name: string): Promise<string> =>
    (
      await createApiKey(upstream.t.store.db, {
        name,
        ratePerMinute: BUDGET,
        now: upstream.t.clock.now(),
      })
    ).key;
  const sharedClient = (key: string, log: string[] = []): UpstreamClient => {
    const redis = connectRedis(redisServer.url);
    // The service's 50 ms command timeout is about a slow Redis; on a loaded test machine a
    // command can take longer, and the instance would then rightly count alone and overspend.
    // What is tested here is the sharing, so Redis is given time to answer.
    redis.options.commandTimeout = 2_000;
    connections.push(redis);
    return new UpstreamClient(
      config(key),
      new SharedKeyBudgets([key], upstream.url, redis, (line) => log.push(line)),
    );
  };
  /** Sends `count` limited requests at once, each waiting up to 3 s for budget; the statuses (0: refused here). */
  const burst = (client: UpstreamClient, count: number): Promise<number[]> =>
    Promise.all(
      Array.from({ length: count }, () =>
        client.get(LIMITED, { limited: true, maxWaitMs: 3_000 }).then(
          (answer) => answer.status,
          (error: unknown) => {
            if (error instanceof UpstreamBusyError) return 0;
            throw error;
          },
        ),
      ),
    );

  before(async () => {
    redisServer = await startRedis();
    upstream = await startTestUpstream(testDatabases[0]!, {}, BUDGET);
  });
  after(async () => {
    for (const redis of connections) redis.disconnect();
    await upstream.stop();
    await redisServer.stop();
  });

  test('two instances on one key spend its whole budget together and cause no 429', async () => {
    const key = await newKey('shared');
    const [one, two] = [sharedClient(key), sharedClient(key)];
    const refusedBefore = upstream.refused();
    // The first instance learns the budget from one answer; the second starts from Redis.
    const statuses = [...(await burst(one, 1)), ...(await burst(two, 2))];
    statuses.push(...(await Promise.all([burst(one, 10), burst(two, 10)])).flat());
    assert.equal(upstream.refused() - refusedBefore, 0, 'the upstream answered no 429');
    assert.equal(
      statuses.filter((status) => status === 200).length,
      BUDGET,
      'the whole budget, no more',
    );
    assert.equal(one.budgets.counts.sent + two.budgets.counts.sent, BUDGET);
    assert.ok(two.budgets.counts.sent >= 2, 'the second instance spent the shared budget');
  });

  test('two instances counting alone on one key do cause 429s (what sharing prevents)', async () => {
    const key = await newKey('alone');
    const alone = () => new UpstreamClient(config(key), new KeyBudgets([key]));
    const refusedBefore = upstream.refused();
    await Promise.all([burst(alone(), 10), burst(alone(), 10)]);
    assert.ok(upstream.refused() - refusedBefore > 0);
  });

  test('with Redis gone an instance counts alone at once, and its requests still go', async () => {
    const key = await newKey('outage');
    const log: string[] = [];
    const client = sharedClient(key, log);
    assert.deepEqual(await burst(client, 1), [200]);
    assert.equal((client.budgets as SharedKeyBudgets).mode(), 'redis');
    await redisServer.stop();
    const started = performance.now();
    const statuses = await burst(client, 1);
    const elapsedMs = performance.now() - started;
    assert.deepEqual(statuses, [200], 'sent with the budget counted in memory');
    assert.ok(elapsedMs < 2_000, `never a hang (${Math.round(elapsedMs)} ms)`);
    assert.equal((client.budgets as SharedKeyBudgets).mode(), 'fallback');
    assert.ok(log.some((line) => line.includes('counted per instance')));
    assert.ok(
      log.every((line) => !line.includes(key)),
      'the key is never logged',
    );
  });
});
