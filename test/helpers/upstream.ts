/**
 * A second instance of this service as the upstream of a mirror: the real app listening on
 * 127.0.0.1 (links naming that address, so telemetry URLs resolve), with a 10-per-minute key,
 * counting the requests it receives by route.
 */
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from './app.ts';
import { freePort } from './server-process.ts';
import { createApiKey } from '../../src/store/api-keys.ts';
import type { TestDatabase } from './stores.ts';

export interface TestUpstream {
  t: TestApp;
  url: string;
  /** The upstream key a mirror uses: 10 requests a minute unless told otherwise. */
  key: string;
  /** Requests received so far by route template, and 429s sent. */
  received: Map<string, number>;
  refused(): number;
  stop(): Promise<void>;
}

export async function startTestUpstream(
  database: TestDatabase,
  env: Record<string, string> = {},
  /** Requests a minute of the mirror's upstream key. */
  ratePerMinute = 10,
): Promise<TestUpstream> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await createTestApp(database, { PUBLIC_BASE_URL: url, ...env });
  const { key } = await createApiKey(t.store.db, {
    name: 'mirror',
    ratePerMinute,
    now: t.clock.now(),
  });
  const received = new Map<string, number>();
  let refused = 0;
  const count = (route: string, status: number): void => {
    received.set(route, (received.get(route) ?? 0) + 1);
    if (status === 429) refused++;
  };
  t.app.addHook('onResponse', async (request, reply) => {
    count(request.routeOptions.url ?? request.url, reply.statusCode);
  });
  // Cached documents are answered in front of Fastify (src/http/fast-path.ts), past its hooks:
  // counted through the metrics recorder the fast path calls (read when the app gets ready).
  const record = t.app.recordResponse;
  assert.ok(record, 'the upstream records metrics (METRICS=on)');
  t.app.recordResponse = (route, method, status, seconds) => {
    count(route, status);
    record(route, method, status, seconds);
  };
  await t.app.listen({ port, host: '127.0.0.1' });
  let stopped = false;
  return {
    t,
    url,
    key,
    received,
    refused: () => refused,
    async stop() {
      if (stopped) return;
      stopped = true;
      await t.close();
    },
  };
}

/** This service with `upstream` as its upstream API, on the same kind of database. */
export function createMirrorOf(
  database: TestDatabase,
  upstream: TestUpstream,
  env: Record<string, string> = {},
): Promise<TestApp> {
  return createTestApp(database, {
    UPSTREAM_URL: upstream.url,
    UPSTREAM_API_KEYS: upstream.key,
    ...env,
  });
}

/** The id of the upstream's current season on `platform`, as its seasons list names it. */
export async function currentSeasonOf(upstream: TestUpstream, platform: string): Promise<string> {
  const answer = await upstream.t.app.inject({
    url: `/shards/${platform}/seasons`,
    headers: upstream.t.auth,
  });
  const seasons = answer.json() as {
    data: { id: string; attributes: { isCurrentSeason: boolean } }[];
  };
  const current = seasons.data.find((season) => season.attributes.isCurrentSeason);
  assert.ok(current, `the upstream has a current season on ${platform}`);
  return current.id;
}
