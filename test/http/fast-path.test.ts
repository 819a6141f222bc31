/**
 * The fast path in front of Fastify (src/http/fast-path.ts) gives exactly Fastify's answer —
 * status, headers, body — for every cached endpoint class, and does everything the Fastify path
 * does per request: the key check (a revocation takes effect at once), the shared rate-limit
 * count (429 at the limit whichever path counted, in memory and in Redis), cache invalidation
 * after an ingest, the metrics and the access line. `inject` goes through Fastify's routing, so
 * these tests use a listening server; a request counts as Fastify's when it runs an onRequest hook.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import {
  KEYED_HERO,
  currentPcSeason,
  ingestKeyedFixture,
  keyedUrls,
} from '../helpers/keyed-urls.ts';
import { listenOnFreePort } from '../helpers/raw-http.ts';
import { httpGet, type HttpAnswer } from '../helpers/http-get.ts';
import { parseExposition, sampleValue } from '../helpers/prometheus.ts';
import { buildApp, type AppDeps } from '../../src/app.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { rebuildLeaderboards } from '../../src/jobs/rebuild-leaderboards.ts';
import { createApiKey, revokeApiKey } from '../../src/store/api-keys.ts';
import { createChangeFeed, type ChangeFeed } from '../../src/store/change-feed.ts';

/** A header that sends a request to Fastify without changing its answer (no tag matches it). */
const VIA_FASTIFY = { 'if-none-match': '"no-such-tag"' };
/**
 * Headers that differ between two answers by nature: the connection's, the count, and the reset
 * (the counters' window runs on real time, the app on its fixed clock; compared apart).
 */
const PER_ANSWER = ['connection', 'keep-alive', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

interface Served {
  app: FastifyInstance;
  port: number;
  /** Requests that reached Fastify's hooks so far. */
  viaFastify(): number;
  log: string[];
  close(): Promise<void>;
}

async function serve(deps: AppDeps): Promise<Served> {
  const log: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      log.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const app = await buildApp({ ...deps, logger: pino({ level: 'info' }, sink) });
  let fastify = 0;
  app.addHook('onRequest', (_request, _reply, done) => {
    fastify++;
    done();
  });
  const port = await listenOnFreePort(app);
  return { app, port, viaFastify: () => fastify, log, close: () => app.close() };
}

/** The answer's headers that must be equal on both paths (Date only when the app's clock sets it). */
function comparable(answer: HttpAnswer): Record<string, unknown> {
  const headers: Record<string, unknown> = { ...answer.headers };
  for (const name of PER_ANSWER) delete headers[name];
  if (answer.headers['x-ratelimit-reset'] === undefined) delete headers.date;
  return headers;
}

for (const database of testDatabases) {
  describe(`the fast path (${database.name})`, () => {
    let t: TestApp;
    let s: Served;
    let feed: ChangeFeed;
    let matchUrl: string;
    let telemetryUrl: string;
    let season: string;

    before(async () => {
      t = await createTestApp(database);
      await ingestKeyedFixture(t);
      season = await currentPcSeason(t);
      const [match] = await t.store.db.selectFrom('matches').select('id').limit(1).execute();
      matchUrl = `/shards/pc-b/matches/${match!.id}`;
      const document = (await t.app.inject({ url: matchUrl })).json() as {
        included: { type: string; attributes: { URL?: string } }[];
      };
      const asset = document.included.find((resource) => resource.type === 'asset');
      telemetryUrl = new URL(asset!.attributes.URL!).pathname;
      // Built leaderboards: their pages are answered on the fast path (unbuilt ones are not).
      await rebuildLeaderboards(t);

      feed = createChangeFeed(t.store, { clock: t.clock, every: () => () => {} });
      s = await serve({ ...t, changes: feed });
      await feed.start();
      // Streamed once to its end, the file is in memory (a streamed answer may end before that).
      await s.app.inject({ url: telemetryUrl, headers: { 'accept-encoding': 'gzip' } });
    });
    after(async () => {
      await s.close();
      await feed.stop();
      await t.close();
    });

    test('answers every cached endpoint class exactly as Fastify does', async () => {
      const urls = [
        '/status',
        '/healthz',
        matchUrl,
        telemetryUrl,
        ...keyedUrls(season),
        '/shards/pc-b/leaderboards/duo?page[number]=1',
        `/shards/pc-eu/leaderboards/${season}/duo`,
      ];
      const variants: Record<string, string>[] = [
        { 'accept-encoding': 'gzip' },
        {},
        { 'accept-encoding': 'gzip, deflate, br', origin: 'https://example.org' },
        { accept: 'application/json', 'accept-encoding': 'gzip' },
      ];
      for (const url of urls) {
        for (const variant of variants) {
          const headers = { ...t.auth, ...variant };
          const slow = await httpGet(s.port, url, { ...headers, ...VIA_FASTIFY });
          const before = s.viaFastify();
          const fast = await httpGet(s.port, url, headers);
          const what = `${url} ${JSON.stringify(variant)}`;
          // Found documents (and pages of built leaderboards) are cached; errors are not.
          // Telemetry from memory is gzip only (identity is inflated while streaming).
          const cached =
            slow.status === 200 &&
            (url !== telemetryUrl || slow.headers['content-encoding'] === 'gzip');
          assert.equal(s.viaFastify() === before, cached, `${what}: on the fast path`);
          assert.equal(fast.status, slow.status, what);
          assert.deepEqual(comparable(fast), comparable(slow), what);
          assert.deepEqual(fast.body, slow.body, what);
          if (slow.headers['x-ratelimit-remaining'] !== undefined) {
            const remaining = (answer: HttpAnswer) =>
              Number(answer.headers['x-ratelimit-remaining']);
            assert.equal(remaining(fast), remaining(slow) - 1, `${what}: counted once`);
            const reset = (answer: HttpAnswer) => Number(answer.headers['x-ratelimit-reset']);
            assert.ok(Math.abs(reset(fast) - reset(slow)) <= 1, `${what}: same reset`);
          }
        }
      }
    });

    test("a match's Cache-Control counts down on the fast path as on Fastify's", async () => {
      const maxAge = (answer: HttpAnswer): number =>
        Number(/max-age=(\d+)/.exec(String(answer.headers['cache-control']))?.[1]);
      for (const headers of [{ 'accept-encoding': 'gzip' }, {}] as Record<string, string>[]) {
        await httpGet(s.port, matchUrl, headers);
        const before = s.viaFastify();
        const first = await httpGet(s.port, matchUrl, headers);
        t.clock.advance(5_000);
        const later = await httpGet(s.port, matchUrl, headers);
        assert.equal(s.viaFastify(), before, 'both on the fast path');
        assert.equal(maxAge(later), maxAge(first) - 5, JSON.stringify(headers));
        const slow = await httpGet(s.port, matchUrl, { ...headers, ...VIA_FASTIFY });
        assert.equal(later.headers['cache-control'], slow.headers['cache-control']);
      }
    });

    test('Cache-Control counts down on the fast path for documents, pages and files too', async () => {
      const maxAge = (answer: HttpAnswer): number =>
        Number(/max-age=(\d+)/.exec(String(answer.headers['cache-control']))?.[1]);
      const leaderboardUrl = `/shards/pc-eu/leaderboards/${season}/duo`;
      const asked: { url: string; headers: Record<string, string> }[] = [];
      for (const url of [telemetryUrl, leaderboardUrl, ...keyedUrls(season)]) {
        asked.push({ url, headers: { ...t.auth, 'accept-encoding': 'gzip' } });
        // Telemetry from memory is gzip only.
        if (url !== telemetryUrl) asked.push({ url, headers: { ...t.auth } });
      }
      // Answers that are cached (found documents, built pages) and say how long to keep them.
      const kept: typeof asked = [];
      for (const entry of asked) {
        const answer = await httpGet(s.port, entry.url, entry.headers);
        if (answer.status === 200 && /max-age=\d+/.test(String(answer.headers['cache-control'])))
          kept.push(entry);
      }
      const get = async ({ url, headers }: (typeof asked)[number]): Promise<HttpAnswer> => {
        const before = s.viaFastify();
        const answer = await httpGet(s.port, url, headers);
        assert.equal(s.viaFastify(), before, `${url} ${JSON.stringify(headers)}: on the fast path`);
        return answer;
      };
      const first: HttpAnswer[] = [];
      for (const entry of kept) first.push(await get(entry));
      t.clock.advance(3_000);
      const counted = new Set<string>();
      for (const [i, entry] of kept.entries()) {
        const later = await get(entry);
        const what = `${entry.url} ${JSON.stringify(entry.headers)}`;
        assert.equal(maxAge(later), maxAge(first[i]!) - 3, what);
        counted.add(entry.url);
      }
      assert.ok(counted.has(telemetryUrl), 'a telemetry file');
      assert.ok(counted.has(leaderboardUrl), 'a leaderboard page');
      assert.ok(counted.size > 2, 'keyed documents');
    });

    test('a leaderboard page is answered by Fastify again once a rebuild is heard', async () => {
      const url = '/shards/pc-b/leaderboards/duo';
      const idOf = async (): Promise<string> => {
        const answer = await httpGet(s.port, url, t.auth);
        assert.equal(answer.status, 200);
        return (JSON.parse(answer.body.toString()) as { data: { id: string } }).data.id;
      };
      const first = await idOf();
      const before = s.viaFastify();
      assert.equal(await idOf(), first);
      assert.equal(s.viaFastify(), before, 'served on the fast path');
      await rebuildLeaderboards(t);
      await feed.poll();
      const rebuilt = await idOf();
      assert.notEqual(rebuilt, first, 'the new build, at the first request after the poll');
      assert.equal(s.viaFastify(), before + 1, 'read by the route');
      assert.equal(await idOf(), rebuilt);
      assert.equal(s.viaFastify(), before + 1, 'then served on the fast path again');
    });

    test('a revoked key is refused on the next request', async () => {
      const { key, record } = await createApiKey(t.store.db, {
        name: 'revoked soon',
        ratePerMinute: 100,
        now: t.clock.now(),
      });
      const headers = { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' };
      const url = `/shards/pc-b/players/${KEYED_HERO}`;
      assert.equal((await httpGet(s.port, url, headers)).status, 200);
      const before = s.viaFastify();
      assert.equal((await httpGet(s.port, url, headers)).status, 200);
      assert.equal(s.viaFastify(), before, 'the second answer is the fast path’s');
      assert.ok(await revokeApiKey(t.store.db, record.id, t.clock.now()));
      await feed.poll();
      const refused = await httpGet(s.port, url, headers);
      assert.equal(refused.status, 401);
    });

    test('fast and Fastify requests share one budget: 429 at the limit', async () => {
      const { key } = await createApiKey(t.store.db, {
        name: 'small budget',
        ratePerMinute: 4,
        now: t.clock.now(),
      });
      const headers = { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' };
      const url = `/shards/pc-b/players/${KEYED_HERO}/seasons/lifetime`;
      const statuses = [];
      const start = s.viaFastify();
      statuses.push((await httpGet(s.port, url, { ...headers, ...VIA_FASTIFY })).status);
      statuses.push((await httpGet(s.port, url, headers)).status);
      statuses.push((await httpGet(s.port, url, { ...headers, ...VIA_FASTIFY })).status);
      statuses.push((await httpGet(s.port, url, headers)).status);
      assert.equal(s.viaFastify() - start, 2, 'two of the four on the fast path');
      const over = await httpGet(s.port, url, headers);
      statuses.push(over.status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
      assert.equal(over.headers['x-ratelimit-remaining'], '0');
    });

    test('an ingest is visible at once on the fast path', async () => {
      const url = `/shards/pc-b/players/${KEYED_HERO}/seasons/lifetime`;
      const wins = async (): Promise<number> => {
        const answer = await httpGet(s.port, url, { ...t.auth });
        assert.equal(answer.status, 200);
        const stats = JSON.parse(answer.body.toString()).data.attributes.gameModeStats;
        return Object.values(stats as Record<string, { roundsPlayed: number }>).reduce(
          (sum, mode) => sum + mode.roundsPlayed,
          0,
        );
      };
      const played = await wins();
      const before = s.viaFastify();
      assert.equal(await wins(), played);
      assert.equal(s.viaFastify(), before, 'served on the fast path');
      await ingestMatch(
        t,
        makeMatchInput({
          seed: 'fast-path-new',
          overrides: { createdAt: new Date(t.clock.now() - 600_000).toISOString() },
        }),
      );
      assert.equal(await wins(), played + 1, 'the new match counts at once');
      await feed.poll();
      const after = s.viaFastify();
      assert.equal(await wins(), played + 1);
      assert.equal(s.viaFastify(), after + 1, 'rendered once more once the commit is announced');
      assert.equal(await wins(), played + 1);
      assert.equal(s.viaFastify(), after + 1, 'then served on the fast path again');
    });

    test('fast answers are counted in the metrics and written to the access log', async () => {
      const url = `/shards/pc-b/players/${accountId(2)}`;
      const route = '/shards/:shard/players/:accountId';
      const headers = { ...t.auth, 'accept-encoding': 'gzip' };
      // Access lines are handed to the log in batches, within a fraction of a second.
      const routedSince = (from: number): Record<string, unknown>[] =>
        s.log
          .slice(from)
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => line.route === route);
      const waitForLines = async (from: number, count: number): Promise<void> => {
        for (let waited = 0; routedSince(from).length < count && waited < 2_000; waited += 20) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      // Lines of earlier requests may still be on their way in a batch: the counts below start
      // once the log has been quiet for a while, after the first request's line.
      const settle = async (): Promise<void> => {
        for (let seen = -1, waited = 0; s.log.length !== seen && waited < 2_000; waited += 250) {
          seen = s.log.length;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      };
      const first = s.log.length;
      await httpGet(s.port, url, headers);
      await waitForLines(first, 1);
      await settle();
      const metrics = async () =>
        sampleValue(
          parseExposition((await s.app.inject({ url: '/metrics' })).body),
          'gamedata_http_requests_total',
          { route, status: '200' },
        ) ?? 0;
      const counted = await metrics();
      const lines = s.log.length;
      const before = s.viaFastify();
      for (let i = 0; i < 3; i++) await httpGet(s.port, url, headers);
      assert.equal(s.viaFastify(), before, 'all three on the fast path');
      assert.equal(await metrics(), counted + 3);
      await waitForLines(lines, 3);
      const written = s.log.slice(lines).map((line) => JSON.parse(line) as Record<string, unknown>);
      const access = routedSince(lines);
      assert.equal(access.length, 3);
      for (const line of access) {
        assert.equal(line.method, 'GET');
        assert.equal(line.status, 200);
        assert.equal(line.msg, 'request');
        assert.equal(typeof line.ms, 'number');
        assert.match(String(line.reqId), /^req-[0-9a-z]+$/);
        assert.equal(typeof line.keyId, 'string');
      }
      assert.equal(new Set(written.map((line) => line.reqId)).size, written.length, 'ids unique');
    });

    test('answers a plain GET on the connection with the bytes Node would write', async () => {
      let parsedByNode = 0;
      const countParsed = (): void => void parsedByNode++;
      s.app.server.on('request', countParsed);
      // The URLs whose answers (200s, which the fast path answers) were compared.
      const compared = new Set<string>();
      try {
        for (const url of ['/status', '/healthz', matchUrl, ...keyedUrls(season)]) {
          for (const encoding of ['Accept-Encoding: gzip\r\n', '']) {
            const request = (extra: string): string =>
              `GET ${url} HTTP/1.1\r\nHost: test\r\nAuthorization: ${t.auth.authorization}\r\n` +
              `${encoding}${extra}\r\n`;
            const warm = await exchange(s.port, request(''));
            if (warm.head.startsWith('HTTP/1.1 200') === false) continue;
            const what = `${url} ${JSON.stringify(encoding)}`;
            const [parsed, routed] = [parsedByNode, s.viaFastify()];
            const onConnection = await exchange(s.port, request(''));
            assert.equal(parsedByNode, parsed, `${what}: not parsed by Node`);
            // A byte beyond ASCII in a header no answer reads: Node parses it, and the fast
            // path answers it through a ServerResponse.
            const throughNode = await exchange(s.port, request('X-Note: caf\xe9\r\n'));
            assert.equal(parsedByNode, parsed + 1, `${what}: parsed by Node`);
            assert.equal(s.viaFastify(), routed, `${what}: both on the fast path`);
            assert.equal(masked(onConnection.head), masked(throughNode.head), what);
            assert.deepEqual(onConnection.body, throughNode.body, what);
            compared.add(url);
          }
        }
      } finally {
        s.app.server.off('request', countParsed);
      }
      for (const url of ['/status', '/healthz', matchUrl]) assert.ok(compared.has(url), url);
      // Of the fixture's 19 keyed URLs, 14 answer 200 (the rest are 404s and 400s by design).
      assert.ok(compared.size >= 3 + 12, `keyed answers compared: ${compared.size - 3}`);
    });
  });
}

/** The head and body of the one answer to `request` on a connection of its own. */
async function exchange(port: number, request: string): Promise<{ head: string; body: Buffer }> {
  const socket = net.connect(port, '127.0.0.1');
  socket.write(request, 'latin1');
  let received = Buffer.alloc(0);
  for await (const chunk of socket as AsyncIterable<Buffer>) {
    received = Buffer.concat([received, chunk]);
    const headEnd = received.indexOf('\r\n\r\n');
    if (headEnd < 0) continue;
    const head = received.toString('latin1', 0, headEnd);
    const length = Number(/^content-length: (\d+)$/im.exec(head)?.[1]);
    if (received.length < headEnd + 4 + length) continue;
    socket.destroy();
    return { head, body: received.subarray(headEnd + 4, headEnd + 4 + length) };
  }
  throw new Error(`the connection closed before an answer to ${JSON.stringify(request)}`);
}

/** A head with the values that differ from answer to answer (the time, the count) masked. */
function masked(head: string): string {
  return head.replace(/^(date|x-ratelimit-remaining|x-ratelimit-reset): .*$/gim, '$1: …');
}

test(
  'fast and Fastify requests on two instances share one Redis budget',
  { skip: !process.env.REDIS_URL_TEST },
  async () => {
    const t = await createTestApp(testDatabases[0]!);
    await ingestKeyedFixture(t);
    // Made before the apps, whose change feeds would otherwise announce it (and drop it from
    // their key caches) at some poll during the test.
    const { key } = await createApiKey(t.store.db, {
      name: 'shared budget',
      ratePerMinute: 5,
      now: t.clock.now(),
    });
    const redis = new Redis(process.env.REDIS_URL_TEST!);
    const first = await serve({ ...t, redis });
    const second = await serve({ ...t, redis });
    try {
      const headers = { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' };
      const url = `/shards/pc-b/players/${KEYED_HERO}`;
      const remaining = async (served: Served, extra = {}) => {
        const answer = await httpGet(served.port, url, { ...headers, ...extra });
        return answer.status === 429 ? 429 : answer.headers['x-ratelimit-remaining'];
      };
      // On a connection of its own, a plain GET is answered on the connection, once counted.
      const onConnection = async (served: Served) => {
        const { head } = await exchange(
          served.port,
          `GET ${url} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${key}\r\n` +
            'Accept-Encoding: gzip\r\n\r\n',
        );
        return head.startsWith('HTTP/1.1 429')
          ? 429
          : /^x-ratelimit-remaining: (\d+)$/im.exec(head)?.[1];
      };
      let parsedByNode = 0;
      const countParsed = (): void => void parsedByNode++;
      for (const served of [first, second]) served.app.server.on('request', countParsed);
      assert.equal(await remaining(first, VIA_FASTIFY), '4');
      assert.equal(await remaining(second, VIA_FASTIFY), '3');
      const before = first.viaFastify() + second.viaFastify();
      assert.equal(await remaining(first), '2');
      assert.equal(await onConnection(second), '1');
      assert.equal(await onConnection(first), '0');
      assert.equal(first.viaFastify() + second.viaFastify(), before, 'all on the fast path');
      assert.equal(parsedByNode, 3, 'the last two answered on the connection');
      assert.equal(await onConnection(second), 429);
      assert.equal(await remaining(first), 429);
    } finally {
      await first.close();
      await second.close();
      redis.disconnect();
      await t.close();
    }
  },
);
