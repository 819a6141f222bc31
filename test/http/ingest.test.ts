import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import {
  sharedTestDatabases,
  testDatabases,
  type SharedTestDatabase,
  type TestDatabase,
} from '../helpers/stores.ts';
import { createTestApp, TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput, sampleTelemetry } from '../helpers/matches.ts';
import { createApiKey } from '../../src/store/api-keys.ts';
import type { MatchInput } from '../../src/ingest/match-input.ts';
import {
  openPreparePool,
  type PreparePool,
  type StoreTarget,
} from '../../src/ingest/prepare-pool.ts';
import type { Config } from '../../src/config.ts';
import type { PrepareTask } from '../../src/ingest/prepare-match.ts';

const CREATED_AT = '2026-11-20T10:00:00Z';
const JSON_HEADERS = { 'content-type': 'application/json' };

/** A match of the test's own, created inside the retention window of the test clock. */
const match = (seed: string, telemetry = false): MatchInput =>
  makeMatchInput({ seed: `http-ingest-${seed}`, telemetry, overrides: { createdAt: CREATED_AT } });

/** A telemetry file whose number spellings JSON.stringify would change (`1.0`, `1e-7` …). */
function telemetryText(matchId: string, marker = 0): string {
  const events = sampleTelemetry(matchId, Date.parse(CREATED_AT));
  const compact = JSON.stringify(events).slice(1, -1);
  return `[\n  {"_T":"LogPlayerPosition","_D":"2026-11-20T10:01:00.000Z","x":1.0,"y":350.40002000,"z":1e-7,"n":${marker}},\n  ${compact}\n]\n`;
}

/**
 * The posted matches' pool: its threads are real, and what crosses them is counted, so a test
 * can tell a match prepared in a worker from one prepared on the serving thread.
 */
function countedPool(
  config: Readonly<Config>,
  target: StoreTarget | null,
): {
  pool: PreparePool;
  handedOver: () => number;
  stored: () => number;
  /** Telemetry files a worker attached. */
  attached: () => number;
  /** Runs before each task goes to the pool, which waits for it (null: none). */
  hold(gate: ((task: PrepareTask) => Promise<void>) | null): void;
} {
  // As `serve` opens its pool: workers that store are processes of their own.
  const pool = openPreparePool(1, config, 0, target, target === null ? 'thread' : 'process');
  let handedOver = 0;
  let stored = 0;
  let attached = 0;
  let gate: ((task: PrepareTask) => Promise<void>) | null = null;
  return {
    hold: (next) => (gate = next),
    pool: {
      size: pool.size,
      copies: pool.copies,
      async prepare(task, handOver) {
        if (handOver === true) handedOver++;
        if (gate) await gate(task);
        const outcome = await pool.prepare(task, handOver);
        if (outcome.kind === 'stored') stored++;
        return outcome;
      },
      prepareFile: (file, now) => pool.prepareFile(file, now),
      stores: pool.stores,
      async attach(matchId, telemetry, now, handOver) {
        const outcome = await pool.attach(matchId, telemetry, now, handOver);
        if (outcome.kind === 'stored') attached++;
        return outcome;
      },
      start: () => pool.start(),
      close: () => pool.close(),
    },
    handedOver: () => handedOver,
    stored: () => stored,
    attached: () => attached,
  };
}

/**
 * Each database without a pool, with one preparing posted matches in threads, and (a database
 * other processes can open too) with one whose worker processes also store them, as `serve`'s
 * does.
 */
const poolModes: Array<{ database: TestDatabase; pool: 'none' | 'prepares' | 'stores' }> = [
  ...testDatabases.map((database) => ({ database, pool: 'none' as const })),
  ...testDatabases.map((database) => ({ database, pool: 'prepares' as const })),
  ...sharedTestDatabases.map((database) => ({ database, pool: 'stores' as const })),
];
const POOL_MODE_NAMES = {
  none: '',
  prepares: ', prepared in a worker thread',
  stores: ', prepared and stored in a worker process',
};

for (const { database, pool } of poolModes) {
  const workers = pool !== 'none';

  describe(`ingest over HTTP (${database.name}${POOL_MODE_NAMES[pool]})`, () => {
    let t: TestApp;
    let ingest: { authorization: string };
    let counted: ReturnType<typeof countedPool> | null = null;

    const post = (body: unknown, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url: '/ingest/matches',
        headers: { ...ingest, ...JSON_HEADERS, ...headers },
        payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
      });
    const putTelemetry = (
      id: string,
      body: string | Buffer,
      headers: Record<string, string> = {},
    ) =>
      t.app.inject({
        method: 'PUT',
        url: `/ingest/matches/${id}/telemetry`,
        headers: { ...ingest, ...JSON_HEADERS, ...headers },
        payload: body,
      });
    const getMatch = (id: string) => t.app.inject({ url: `/shards/pc-b/matches/${id}` });
    const assetOf = (document: {
      included: Array<{ type: string; attributes: { URL: string } }>;
    }) => document.included.find((resource) => resource.type === 'asset');
    const count = async (table: 'matches' | 'participants' | 'match_documents') =>
      Number(
        (
          await t.store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    before(async () => {
      const target = (config: Readonly<Config>): StoreTarget | null =>
        pool === 'stores' ? (database as SharedTestDatabase).target(config) : null;
      const ingestPool = (config: Readonly<Config>) =>
        (counted = countedPool(config, target(config))).pool;
      t = await createTestApp(database, {}, workers ? { ingestPool } : {});
      const { key } = await createApiKey(t.store.db, {
        name: 'game-server-1',
        scope: 'ingest',
        ratePerMinute: 1000,
        now: t.clock.now(),
      });
      ingest = { authorization: `Bearer ${key}` };
    });
    after(() => t.close());

    test('a match with inline telemetry: 201, Location, and a document naming its asset', async () => {
      const input = match('inline', true);
      const response = await post(input);
      assert.equal(response.statusCode, 201, response.body);
      assert.equal(response.headers.location, `${TEST_BASE_URL}/shards/pc-b/matches/${input.id}`);
      assert.equal(response.headers['content-type'], 'application/vnd.api+json');
      assert.deepEqual(response.json(), {
        data: { type: 'match', id: input.id },
        meta: { result: 'ingested', telemetry: true },
      });
      const document = (await getMatch(input.id)).json();
      const url = assetOf(document)!.attributes.URL;
      const file = await t.app.inject({ url: url.slice(TEST_BASE_URL.length) });
      assert.equal(file.statusCode, 200);
      assert.deepEqual(file.json(), input.telemetry);

      const matches = await count('matches');
      const again = await post(input);
      assert.equal(again.statusCode, 200);
      assert.equal(again.headers.location, undefined);
      assert.deepEqual(again.json().meta, { result: 'unchanged', telemetry: true });
      assert.equal(await count('matches'), matches);
    });

    test('matches posted at once, larger and smaller, are each stored as they were sent', async () => {
      // 0.4–2.4 MB each with their telemetry padded: a worker process reads each from its
      // socket while the next bodies arrive, into buffers earlier bodies were received in.
      const inputs = [30000, 8000, 20000, 5000].map((positions, i) => {
        const input = match(`at-once-${i}`, true);
        const padding = Array.from({ length: positions }, (_, k) => ({
          _T: 'LogPlayerPosition',
          _D: input.createdAt,
          x: k + 0.5,
          y: i,
        }));
        return { ...input, telemetry: [...padding, ...input.telemetry!] };
      });
      for (const round of [inputs.slice(0, 2), inputs.slice(2)]) {
        const responses = await Promise.all(round.map((input) => post(input)));
        assert.deepEqual(
          responses.map((r) => r.statusCode),
          [201, 201],
          responses.map((r) => r.body).join('\n'),
        );
      }
      for (const input of inputs) {
        const url = assetOf((await getMatch(input.id)).json())!.attributes.URL;
        const file = await t.app.inject({ url: url.slice(TEST_BASE_URL.length) });
        assert.deepEqual(file.json(), input.telemetry, input.id);
      }
    });

    // Only with a pool: without one there is nothing to count.
    if (workers) {
      test('a posted match is prepared in a worker thread, its bytes handed over', async () => {
        const before = counted!.handedOver();
        const response = await post(match('where', true));
        assert.equal(response.statusCode, 201, response.body);
        // Not a match in the ingest format: tried by the pool too, then ingested here.
        const notJson = await post('{"id": ');
        assert.equal(notJson.statusCode, 400);
        assert.equal(counted!.handedOver(), before + 2);
      });
    }

    if (pool === 'stores') {
      test('a posted body stays as it came until its worker has it, whatever arrives meanwhile', async () => {
        // The first match is held before it goes to the pool while a smaller one is received:
        // the first's buffer must not be the one the second lands in.
        const first = match('held-first', true);
        const second = match('held-second');
        let secondAtPool!: () => void;
        const secondArrived = new Promise<void>((resolve) => (secondAtPool = resolve));
        let firstAtPool!: () => void;
        const firstArrived = new Promise<void>((resolve) => (firstAtPool = resolve));
        let held: { before: string; after: string } | null = null;
        counted!.hold(async (task) => {
          if (held !== null) return secondAtPool();
          held = { before: Buffer.from(task.source).toString('base64'), after: '' };
          firstAtPool();
          await secondArrived;
          held.after = Buffer.from(task.source).toString('base64');
        });
        try {
          const posted = post(first);
          await firstArrived;
          const responses = await Promise.all([posted, post(second)]);
          assert.deepEqual(
            responses.map((r) => r.statusCode),
            [201, 201],
          );
        } finally {
          counted!.hold(null);
        }
        assert.ok(held !== null);
        const { before, after } = held as { before: string; after: string };
        assert.ok(before === after, 'the first body unchanged while the second arrived');
        const url = assetOf((await getMatch(first.id)).json())!.attributes.URL;
        const file = await t.app.inject({ url: url.slice(TEST_BASE_URL.length) });
        assert.deepEqual(file.json(), first.telemetry);
      });

      test('a match a worker thread stored is in every answer once its 201 is', async () => {
        const player = `/shards/pc-b/players/${accountId(0)}`;
        const listed = async (): Promise<string[]> => {
          const answer = await t.app.inject({ url: player, headers: t.auth });
          assert.equal(answer.statusCode, 200, answer.body);
          return answer.json().data.relationships.matches.data.map((m: { id: string }) => m.id);
        };
        const first = match('stored-first', true);
        assert.equal((await post(first)).statusCode, 201);
        assert.ok((await listed()).includes(first.id));
        // Cached now; the next match's commit is another connection's, heard from the feed.
        const storedBefore = counted!.stored();
        const second = match('stored-second', true);
        const created = await post(second);
        assert.equal(created.statusCode, 201, created.body);
        assert.equal(counted!.stored(), storedBefore + 1, 'stored by the worker');
        assert.ok((await listed()).includes(second.id), 'the cached player was dropped');
        assert.equal((await getMatch(second.id)).statusCode, 200);
        // Refused by the worker's store: the same class of error, the same answer.
        const conflicting = { ...second, telemetry: [{ _T: 'LogMatchStart', _D: CREATED_AT }] };
        const refused = await post(conflicting);
        assert.equal(refused.statusCode, 409, refused.body);
        assert.match(refused.json().errors[0].detail, /different telemetry file/);
      });
    }

    test('telemetry in a second request: no asset until it arrives, then a new document', async () => {
      const input = match('later');
      const created = await post(input);
      assert.deepEqual(created.json().meta, { result: 'ingested', telemetry: false });

      const pending = await getMatch(input.id);
      assert.equal(pending.statusCode, 200);
      assert.deepEqual(pending.json().data.relationships.assets.data, []);
      assert.equal(assetOf(pending.json()), undefined);
      assert.equal(pending.headers['cache-control'], 'no-cache');
      // Served from the store on every request, so the attach below is seen at once.
      assert.equal((await getMatch(input.id)).headers.etag, pending.headers.etag);

      const text = telemetryText(input.id);
      const gzipped = zlib.gzipSync(text, { level: 1 });
      const attachedBefore = counted?.attached() ?? 0;
      const attached = await putTelemetry(input.id, gzipped, { 'content-encoding': 'gzip' });
      assert.equal(attached.statusCode, 201, attached.body);
      // Where the workers store, one attached it: the file was parsed off the serving thread.
      assert.equal((counted?.attached() ?? 0) - attachedBefore, pool === 'stores' ? 1 : 0);
      assert.deepEqual(attached.json(), {
        data: { type: 'match', id: input.id },
        meta: { result: 'attached', telemetry: true },
      });

      const final = await getMatch(input.id);
      assert.notEqual(final.headers.etag, pending.headers.etag);
      assert.match(String(final.headers['cache-control']), /immutable/);
      const url = assetOf(final.json())!.attributes.URL;
      const file = await t.app.inject({
        url: url.slice(TEST_BASE_URL.length),
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.ok(file.rawPayload.equals(gzipped), 'the gzip file is served exactly as it was sent');
      const plain = await t.app.inject({ url: url.slice(TEST_BASE_URL.length) });
      assert.equal(plain.body, text);

      // The same file again (plain this time) changes nothing; another file is refused.
      const same = await putTelemetry(input.id, text);
      assert.equal(same.statusCode, 200);
      assert.deepEqual(same.json().meta, { result: 'unchanged', telemetry: true });
      const other = await putTelemetry(input.id, telemetryText(input.id, 1));
      assert.equal(other.statusCode, 409);
      assert.match(other.json().errors[0].detail, /different telemetry file/);
      const still = await t.app.inject({ url: url.slice(TEST_BASE_URL.length) });
      assert.equal(still.body, text);
      assert.equal((await getMatch(input.id)).headers.etag, final.headers.etag);
    });

    test('a recorded document is kept as sent and served with only its links rewritten', async () => {
      const input = match('recorded');
      const self = `${TEST_BASE_URL}/shards/pc-b/matches/${input.id}`;
      // The ingest format rendered as the real service would, then spelled as a recording.
      await post(input);
      const rendered = (await getMatch(input.id)).json();
      await t.store.db.deleteFrom('matches').where('id', '=', input.id).execute();
      await t.store.db.deleteFrom('match_documents').where('match_id', '=', input.id).execute();
      const id = '2f0b6d7c-4a1e-4c55-9d2b-8f1e0a3c5b7d';
      rendered.data.id = id;
      rendered.links.self = `https://api-origin.example/shards/steam/matches/${id}`;
      rendered.data.links.self = `https://api.example/shards/steam/matches/${id}`;
      rendered.data.relationships.assets.data = [
        { type: 'asset', id: 'a1b2c3d4-1111-11f1-8000-0a0b0c0d0e0f' },
      ];
      rendered.included.push({
        type: 'asset',
        id: 'a1b2c3d4-1111-11f1-8000-0a0b0c0d0e0f',
        attributes: {
          URL: `https://telemetry-cdn.example/bluehole-pubg/pc-eu/2026/11/20/10/32/a1b2c3d4-1111-11f1-8000-0a0b0c0d0e0f-telemetry.json`,
          name: 'telemetry',
          description: '',
          createdAt: '2026-11-20T10:32:00Z',
        },
      });
      for (const resource of rendered.included) {
        if (resource.type === 'participant') resource.attributes.stats.walkDistance = 1000;
      }
      const raw = JSON.stringify(rendered, null, 2).replace(
        /"walkDistance": 1000/g,
        '"walkDistance": 1000.0',
      );

      const response = await post(raw);
      assert.equal(response.statusCode, 201, response.body);
      const pending = await getMatch(id);
      assert.equal(assetOf(pending.json()), undefined);

      const text = telemetryText(id);
      assert.equal((await putTelemetry(id, text)).statusCode, 201);
      const served = await getMatch(id);
      const url = `${TEST_BASE_URL}/telemetry/bluehole-pubg/pc-b/2026/11/20/10/32/a1b2c3d4-1111-11f1-8000-0a0b0c0d0e0f-telemetry.json`;
      const expected = raw
        .replace(
          `https://api-origin.example/shards/steam/matches/${id}`,
          self.replace(input.id, id),
        )
        .replace(`https://api.example/shards/steam/matches/${id}`, self.replace(input.id, id))
        .replace(/https:\/\/telemetry-cdn\.example[^"]+/, url);
      assert.equal(served.body, expected);
      assert.equal((await t.app.inject({ url: url.slice(TEST_BASE_URL.length) })).body, text);
    });

    test('invalid input: 400 naming the field, nothing written', async () => {
      const before = [
        await count('matches'),
        await count('participants'),
        await count('match_documents'),
      ];
      const bad = match('bad');
      (bad.rosters[0]!.participants[1]!.stats as { kills: unknown }).kills = -1;
      const refused = await post(bad);
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.json().errors[0].title, 'Bad Request');
      assert.match(refused.json().errors[0].detail, /^rosters\/0\/participants\/1\/stats\/kills: /);

      // Text no database stores as given: a 400 on both, never a 500 on PostgreSQL.
      for (const name of ['Bad\u0000Name', 'Bad\uD800Name']) {
        const hostile = match(`hostile-${name.length}-${name.charCodeAt(3)}`);
        hostile.rosters[1]!.participants[0]!.name = name;
        const answer = await post(hostile);
        assert.equal(answer.statusCode, 400, JSON.stringify(name));
        assert.match(answer.json().errors[0].detail, /^rosters\/1\/participants\/0\/name: /);
      }

      const notJson = await post('{"id": ');
      assert.equal(notJson.statusCode, 400);
      assert.match(notJson.json().errors[0].detail, /not valid JSON/);

      const recorded = await post({ data: { type: 'match', id: 'x', attributes: {} } });
      assert.equal(recorded.statusCode, 400);
      assert.match(recorded.json().errors[0].detail, /^data\/attributes\/createdAt: /);

      const badEvents = await putTelemetry(match('inline').id, '[{"_T":"LogMatchStart"}]');
      assert.equal(badEvents.statusCode, 400);
      assert.match(badEvents.json().errors[0].detail, /^telemetry\/0\/_D: /);
      assert.deepEqual(
        [await count('matches'), await count('participants'), await count('match_documents')],
        before,
      );
    });

    test('telemetry that unzips past INGEST_MAX_MB: 413 from wherever it is read', async () => {
      const input = match('bomb');
      assert.equal((await post(input)).statusCode, 201);
      const limit = t.config.ingestMaxBytes;
      // A valid array once unzipped, but whitespace past the limit: a few KB on the wire.
      const bomb = zlib.gzipSync(`[${' '.repeat(limit + 1024)}]`);
      const attachedBefore = counted?.attached() ?? 0;
      const refused = await putTelemetry(input.id, bomb, { 'content-encoding': 'gzip' });
      assert.equal(refused.statusCode, 413, refused.body);
      assert.match(refused.json().errors[0].detail, /unzipped/);
      assert.equal(counted?.attached() ?? 0, attachedBefore, 'nothing attached');
      assert.deepEqual(assetOf((await getMatch(input.id)).json()), undefined);
    });

    test('telemetry for an unknown or malformed match id: 404 and 400', async () => {
      const unknown = await putTelemetry('00000000-0000-4000-8000-000000000000', '[]');
      assert.equal(unknown.statusCode, 404);
      assert.match(unknown.json().errors[0].detail, /ingest the match before its telemetry/);
      const malformed = await putTelemetry('not-a-match', '[]');
      assert.equal(malformed.statusCode, 400);
      assert.ok(Array.isArray(malformed.json().errors));
    });

    test('keys: none → 401, a read key → 403 here, an ingest key → 403 on reads', async () => {
      const anonymous = await post(match('auth'), { authorization: '' });
      assert.equal(anonymous.statusCode, 401);
      const read = await post(match('auth'), t.auth);
      assert.equal(read.statusCode, 403);
      assert.match(read.json().errors[0].detail, /ingest scope/);
      const put = await putTelemetry(match('auth').id, '[]', t.auth);
      assert.equal(put.statusCode, 403);
      const reading = await t.app.inject({ url: '/shards/pc-b/seasons', headers: ingest });
      assert.equal(reading.statusCode, 403);
      assert.equal(reading.json().errors[0].title, 'Forbidden');
      assert.equal((await count('matches')) > 0, true);
    });

    test('Content-Type and Content-Encoding other than JSON and gzip: 415', async () => {
      const body = JSON.stringify(match('media'));
      for (const headers of [
        { 'content-type': 'text/plain' },
        { 'content-type': 'application/x-www-form-urlencoded' },
      ]) {
        const response = await post(body, headers);
        assert.equal(response.statusCode, 415, JSON.stringify(headers));
        assert.match(response.json().errors[0].detail, /application\/json/);
      }
      const charset = await post(body, { 'content-type': 'application/json; charset=utf-8' });
      assert.equal(charset.statusCode, 201, charset.body);
      const vnd = await post(JSON.stringify(match('media-vnd')), {
        'content-type': 'application/vnd.api+json',
      });
      assert.equal(vnd.statusCode, 201);
      const brotli = await post(zlib.brotliCompressSync(body), { 'content-encoding': 'br' });
      assert.equal(brotli.statusCode, 415);
      assert.ok(Array.isArray(brotli.json().errors));
      const put = await putTelemetry(match('media').id, '[]', { 'content-encoding': 'deflate' });
      assert.equal(put.statusCode, 415);
    });

    test('a gzip body is accepted and decompressed by the server', async () => {
      const input = match('gzip', true);
      const response = await post(zlib.gzipSync(JSON.stringify(input)), {
        'content-encoding': 'GZip',
      });
      assert.equal(response.statusCode, 201, response.body);
      const broken = await post(Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' });
      assert.equal(broken.statusCode, 400);
      assert.ok(Array.isArray(broken.json().errors));
    });
  });
}

for (const database of testDatabases) {
  describe(`ingest limits (${database.name})`, () => {
    let t: TestApp;
    let ingest: { authorization: string };
    const MB = 1024 * 1024;

    before(async () => {
      t = await createTestApp(database, { INGEST_MAX_MB: '1' });
      const { key } = await createApiKey(t.store.db, {
        name: 'limited',
        scope: 'ingest',
        ratePerMinute: 6,
        now: t.clock.now(),
      });
      ingest = { authorization: `Bearer ${key}` };
    });
    after(() => t.close());

    const send = (method: 'POST' | 'PUT', url: string, payload: Buffer, headers = {}) =>
      t.app.inject({ method, url, payload, headers: { ...ingest, ...JSON_HEADERS, ...headers } });

    test('413 beyond INGEST_MAX_MB, counted unzipped (no gzip bomb gets through)', async () => {
      const big = Buffer.from(JSON.stringify({ ...match('big'), padding: 'x'.repeat(MB) }));
      const tooLarge = await send('POST', '/ingest/matches', big);
      assert.equal(tooLarge.statusCode, 413);
      assert.match(tooLarge.json().errors[0].detail, /INGEST_MAX_MB/);

      // 8 MB of whitespace inside valid JSON, 8 KB on the wire.
      const bomb = zlib.gzipSync(`{"id":1${' '.repeat(8 * MB)}}`);
      assert.ok(bomb.length < 64 * 1024);
      const posted = await send('POST', '/ingest/matches', bomb, { 'content-encoding': 'gzip' });
      assert.equal(posted.statusCode, 413);
      const stored = match('stored');
      assert.equal(
        (await send('POST', '/ingest/matches', Buffer.from(JSON.stringify(stored)))).statusCode,
        201,
      );
      const put = await send('PUT', `/ingest/matches/${stored.id}/telemetry`, bomb, {
        'content-encoding': 'gzip',
      });
      assert.equal(put.statusCode, 413);
      assert.match(put.json().errors[0].detail, /unzipped/);
      assert.equal(
        Number(
          (
            await t.store.db
              .selectFrom('matches')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
        1,
      );
    });

    test("the key's own ingest budget: 429 past it, reads of other keys untouched", async () => {
      let last = await send('POST', '/ingest/matches', Buffer.from('{}'));
      assert.equal(last.headers['x-ratelimit-limit'], '6');
      const reset = Number(last.headers['x-ratelimit-reset']);
      assert.ok(reset > Date.parse(String(last.headers.date)) / 1000, 'Reset is a UNIX time');
      for (let i = 0; i < 6; i++) last = await send('POST', '/ingest/matches', Buffer.from('{}'));
      assert.equal(last.statusCode, 429);
      assert.ok(Number(last.headers['retry-after']) >= 1);
      assert.equal(last.json().errors[0].title, 'Too Many Requests');
      const read = await t.app.inject({ url: '/shards/pc-b/seasons', headers: t.auth });
      assert.equal(read.statusCode, 200);
      assert.equal(read.headers['x-ratelimit-remaining'], String(10_000 - 1));
    });

    test('the OpenAPI document describes both routes under the ingest key only', async () => {
      const openapi = (await t.app.inject({ url: '/openapi.json' })).json();
      const postOp = openapi.paths['/ingest/matches'].post;
      const putOp = openapi.paths['/ingest/matches/{matchId}/telemetry'].put;
      assert.equal(postOp.operationId, 'ingestMatch');
      assert.equal(putOp.operationId, 'attachMatchTelemetry');
      for (const op of [postOp, putOp]) {
        assert.deepEqual(op.security, [{ ingestKey: [] }]);
        assert.ok(op.summary);
        for (const status of ['200', '201', '400', '401', '403', '409', '413', '415', '429']) {
          assert.ok(op.responses[status], `${op.operationId} documents ${status}`);
        }
      }
      assert.equal(openapi.components.securitySchemes.ingestKey.scheme, 'bearer');
      const secured = Object.values(
        openapi.paths as Record<string, Record<string, { security?: unknown }>>,
      )
        .flatMap((methods) => Object.values(methods))
        .filter((op) => JSON.stringify(op.security ?? []).includes('ingestKey'));
      assert.equal(secured.length, 2);
    });
  });
}
