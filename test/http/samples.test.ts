import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { HAVE_FIXTURES, assertSameShape, loadFixture } from '../helpers/fixture-shapes.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { buildSamples } from '../../src/jobs/build-samples.ts';
import { purgeExpired } from '../../src/jobs/purge-expired.ts';
import { deleteMatches } from '../../src/store/retention.ts';
import type { Platform } from '../../src/domain/shards.ts';

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const at = (text: string): number => Date.parse(text);
const HOUR = 3_600_000;

interface SampleBody {
  data: {
    type: string;
    id: string;
    attributes: { createdAt: string; titleId: string; shardId: string };
    relationships: {
      matches: { data: Array<{ type: string; id: string; meta: { shardId: string } }> };
    };
  };
  links: { self: string };
  meta: object;
}

async function ingestIn(
  t: TestApp,
  seed: string,
  platform: Platform,
  region: string,
  createdAt: number,
): Promise<string> {
  const match = makeMatchInput({
    seed,
    overrides: { platformShard: platform, regionShard: region, createdAt: iso(createdAt) },
  });
  await ingestMatch(t, match);
  return match.id;
}

async function listId(t: TestApp, region: string, createdAt: string): Promise<string> {
  const row = await t.store.db
    .selectFrom('sample_lists')
    .select('id')
    .where('region', '=', region)
    .where('created_at', '=', at(createdAt))
    .executeTakeFirstOrThrow();
  return row.id;
}

for (const database of testDatabases) {
  // The test clock stands at 2026-11-20T12:00:00Z; retention is 14 days, so the cutoff is 2026-11-06T12:00:00Z.
  test(`[${database.name}] GET /shards/:shard/samples`, async (s) => {
    const t = await createTestApp(database, { SAMPLE_SIZE: '3' });
    const get = (url: string, headers: Record<string, string> = t.auth) =>
      t.app.inject({ url, headers });
    const sample = async (url: string): Promise<SampleBody> => {
      const response = await get(url);
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      return response.json();
    };
    const ids = (body: SampleBody): string[] =>
      body.data.relationships.matches.data.map((m) => m.id);
    const detail = async (url: string, status: number): Promise<string> => {
      const response = await get(url);
      assert.equal(response.statusCode, status, `${url}: ${response.body}`);
      const body = response.json();
      assert.equal(body.data, undefined);
      return body.errors[0].detail;
    };
    try {
      const eu: string[] = [];
      for (let i = 0; i < 5; i++)
        eu.push(
          await ingestIn(t, `eu${i}`, 'pc-b', 'pc-eu', at('2026-11-19T01:00:00Z') + i * HOUR),
        );
      const na = [
        await ingestIn(t, 'na0', 'pc-b', 'pc-na', at('2026-11-19T10:00:00Z')),
        await ingestIn(t, 'na1', 'pc-b', 'pc-na', at('2026-11-19T11:00:00Z')),
      ];
      const kakao = await ingestIn(t, 'kakao', 'pc-a', 'pc-a', at('2026-11-19T12:00:00Z'));
      const psn = await ingestIn(t, 'psn', 'console-a', 'console-a-eu', at('2026-11-19T13:00:00Z'));
      const tournament = await ingestIn(
        t,
        'tournament',
        'tournament',
        'pc-tournament',
        at('2026-11-19T14:00:00Z'),
      );
      const oldest = await ingestIn(t, 'oldest', 'pc-b', 'pc-eu', at('2026-11-06T12:30:00Z'));
      const older = await ingestIn(t, 'older', 'pc-b', 'pc-eu', at('2026-11-07T05:00:00Z'));
      await buildSamples(t);

      await s.test(
        'the latest list of the region by default, shaped like the real service',
        async () => {
          const response = await get('/shards/pc-eu/samples');
          assert.equal(response.statusCode, 200);
          assert.equal(response.headers['content-type'], 'application/vnd.api+json');
          assert.equal(
            response.headers['cache-control'],
            'public, max-age=43200',
            'until the next midnight',
          );
          assert.equal(response.headers.deprecation, undefined);
          for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
            assert.ok(response.headers[name] !== undefined, `${name} is sent`);
          }
          const body: SampleBody = response.json();
          assert.deepEqual(Object.keys(body), ['data', 'links', 'meta']);
          assert.equal(body.data.type, 'sample');
          assert.equal(body.data.id, await listId(t, 'pc-eu', '2026-11-20T00:00:00Z'));
          assert.deepEqual(body.data.attributes, {
            createdAt: '2026-11-20T00:00:00Z',
            titleId: 'bluehole-pubg',
            shardId: 'pc-eu',
          });
          const entries = body.data.relationships.matches.data;
          assert.equal(entries.length, 3, 'SAMPLE_SIZE of the five matches');
          for (const entry of entries) {
            assert.deepEqual(entry, { type: 'match', id: entry.id, meta: { shardId: 'pc-b' } });
            assert.ok(eu.includes(entry.id));
          }
          assert.deepEqual(body.links, { self: `${t.config.publicBaseUrl}/shards/pc-eu/samples` });
          assert.deepEqual(body.meta, {});
        },
      );

      await s.test(
        'the shape of the recorded samples, plus links, meta and the shard of each match',
        { skip: !HAVE_FIXTURES },
        async () => {
          for (const file of [
            'pubg-python--tests-samples_response.json',
            'php-pubg--tests-example-samples@1094080.json',
          ]) {
            assertSameShape(await sample('/shards/steam/samples'), loadFixture(`samples/${file}`), {
              extra: ['links', 'meta', 'data.relationships.matches.data[].meta'],
            });
          }
        },
      );

      await s.test(
        'filter[createdAt-start] names the list whose day holds it, brackets literal or encoded',
        async () => {
          const latestId = await listId(t, 'pc-eu', '2026-11-20T00:00:00Z');
          const midnight = await sample(
            '/shards/pc-eu/samples?filter[createdAt-start]=2026-11-19T00:00:00Z',
          );
          assert.equal(midnight.data.id, latestId);
          assert.equal(
            midnight.links.self,
            `${t.config.publicBaseUrl}/shards/pc-eu/samples?filter[createdAt-start]=2026-11-19T00:00:00Z`,
          );
          const encoded = await sample(
            '/shards/pc-eu/samples?filter%5BcreatedAt-start%5D=2026-11-19T23%3A59%3A59.999Z',
          );
          assert.equal(encoded.data.id, latestId);
          assert.equal(
            encoded.links.self,
            midnight.links.self,
            'self is the permalink of the list',
          );
          // .NET's round-trip format of a UTC-local time: seven fraction digits and `+00:00`.
          const zeroOffset = await sample(
            '/shards/pc-eu/samples?filter[createdAt-start]=2026-11-07T05%3A00%3A00.1230000%2B00%3A00',
          );
          const earlier = await sample(
            '/shards/pc-eu/samples?filter[createdAt-start]=2026-11-07T05:00:00.123Z',
          );
          assert.equal(zeroOffset.data.id, earlier.data.id);
          assert.equal(earlier.data.attributes.createdAt, '2026-11-08T00:00:00Z');
          assert.deepEqual(ids(earlier), [older]);
          const pubgJs = await sample(
            '/shards/pc-eu/samples?filter[createdAt]=2026-11-10T00:00:00Z',
          );
          assert.equal(pubgJs.data.id, latestId, 'unknown filters are ignored');
        },
      );

      await s.test('history reaches back exactly RETENTION_DAYS', async () => {
        const inside = await sample(
          '/shards/pc-eu/samples?filter[createdAt-start]=2026-11-06T12:00:01Z',
        );
        assert.equal(inside.data.attributes.createdAt, '2026-11-07T00:00:00Z');
        assert.deepEqual(ids(inside), [oldest]);
        const outside = await detail(
          '/shards/pc-eu/samples?filter[createdAt-start]=2026-11-06T11:59:59Z',
          400,
        );
        assert.match(outside, /14 days/);
        assert.match(outside, /2026-11-06T12:00:00Z/);
      });

      await s.test('a malformed time is a 400 naming the expected format', async () => {
        for (const value of [
          'yesterday',
          '2026-13-01T00:00:00Z',
          '2026-02-30T00:00:00Z',
          '2026-11-19T24:00:00Z',
          '2026-11-19T00:00:00',
          '2026-11-19',
          '2026-11-19T00:00:00%2B01:00',
          '',
        ]) {
          const message = await detail(
            `/shards/pc-eu/samples?filter[createdAt-start]=${value}`,
            400,
          );
          assert.match(message, /YYYY-MM-DDTHH:MM:SSZ/, value);
        }
      });

      await s.test(
        'a future time is a 400; a day not over yet is a 404 saying when its list comes',
        async () => {
          assert.match(
            await detail('/shards/pc-eu/samples?filter[createdAt-start]=2026-11-21T00:00:00Z', 400),
            /future/,
          );
          assert.match(
            await detail('/shards/pc-eu/samples?filter[createdAt-start]=2026-11-20T06:00:00Z', 404),
            /published at 2026-11-21T00:00:00Z/,
          );
        },
      );

      await s.test(
        'shards: regions, pc-a, platforms as the union of their regions, aliases',
        async () => {
          const kakaoRegion = await sample('/shards/pc-a/samples');
          assert.equal(kakaoRegion.data.id, await listId(t, 'pc-a', '2026-11-20T00:00:00Z'));
          assert.deepEqual(kakaoRegion.data.relationships.matches.data, [
            { type: 'match', id: kakao, meta: { shardId: 'pc-a' } },
          ]);
          const kakaoAlias = await sample('/shards/kakao/samples');
          assert.equal(kakaoAlias.data.id, kakaoRegion.data.id);
          assert.equal(kakaoAlias.data.attributes.shardId, 'kakao');
          assert.equal(kakaoAlias.data.relationships.matches.data[0]!.meta.shardId, 'kakao');

          const pcB = await sample('/shards/pc-b/samples');
          assert.equal(pcB.data.attributes.shardId, 'pc-b');
          assert.equal(pcB.data.attributes.createdAt, '2026-11-20T00:00:00Z');
          assert.equal(ids(pcB).length, 5, 'three of pc-eu and both of pc-na');
          assert.deepEqual(
            ids(pcB)
              .filter((id) => na.includes(id))
              .sort(),
            [...na].sort(),
          );
          assert.ok(ids(pcB).every((id) => eu.includes(id) || na.includes(id)));
          assert.notEqual(pcB.data.id, await listId(t, 'pc-eu', '2026-11-20T00:00:00Z'));
          const steam = await sample('/shards/steam/samples');
          assert.equal(steam.data.id, pcB.data.id, 'a platform sample has a stable id');
          assert.deepEqual(ids(steam), ids(pcB));
          assert.equal(steam.data.attributes.shardId, 'steam');
          assert.ok(steam.data.relationships.matches.data.every((m) => m.meta.shardId === 'steam'));

          const psnEu = await sample('/shards/psn-eu/samples');
          assert.deepEqual(psnEu.data.relationships.matches.data, [
            { type: 'match', id: psn, meta: { shardId: 'psn' } },
          ]);
          const tournaments = await sample('/shards/tournament/samples');
          assert.deepEqual(tournaments.data.relationships.matches.data, [
            { type: 'match', id: tournament, meta: { shardId: 'tournament' } },
          ]);
          assert.equal(
            (await sample('/shards/pc-tournament/samples')).data.id,
            tournaments.data.id,
          );

          const quiet = await sample('/shards/console-b-sa/samples');
          assert.deepEqual(
            quiet.data.relationships.matches.data,
            [],
            'a region without matches has an empty list',
          );
          assert.match(await detail('/shards/pc-zz/samples', 404), /pc-zz/);
        },
      );

      await s.test(
        'every listed match resolves on the matches endpoint of its meta.shardId',
        async () => {
          let checked = 0;
          for (const shard of [
            'pc-eu',
            'pc-na',
            'pc-b',
            'steam',
            'kakao',
            'psn-eu',
            'psn',
            'tournament',
            'xbox',
          ]) {
            for (const entry of (await sample(`/shards/${shard}/samples`)).data.relationships
              .matches.data) {
              const match = await t.app.inject({
                url: `/shards/${entry.meta.shardId}/matches/${entry.id}`,
              });
              assert.equal(
                match.statusCode,
                200,
                `${shard}: /shards/${entry.meta.shardId}/matches/${entry.id}`,
              );
              checked += 1;
            }
          }
          assert.ok(checked >= 10);
        },
      );

      await s.test('gzip is served as rendered once', async () => {
        const plain = await get('/shards/pc-eu/samples');
        const gzipped = await get('/shards/pc-eu/samples', {
          ...t.auth,
          'accept-encoding': 'gzip',
        });
        assert.equal(gzipped.headers['content-encoding'], 'gzip');
        assert.equal(zlib.gunzipSync(gzipped.rawPayload).toString(), plain.body);
        assert.equal(plain.headers['content-encoding'], undefined);
      });

      await s.test('a key is required', async () => {
        const response = await get('/shards/pc-eu/samples', {});
        assert.equal(response.statusCode, 401);
        assert.equal(response.json().errors[0].title, 'Unauthorized');
      });

      await s.test('purged matches are never listed', async () => {
        const before = ids(await sample('/shards/pc-eu/samples'));
        await deleteMatches(t.store.db, [before[0]!]);
        const after = await sample('/shards/pc-eu/samples');
        assert.deepEqual(
          ids(after),
          before.slice(1),
          'the new revision is rendered, not the cached one',
        );
        assert.equal(after.data.id, await listId(t, 'pc-eu', '2026-11-20T00:00:00Z'));

        // An hour on, the oldest match has left retention: no longer listed, purged or not.
        t.clock.set(at('2026-11-06T12:30:00Z') + 14 * 24 * HOUR + 1000);
        const lastDay = '/shards/pc-eu/samples?filter[createdAt-start]=2026-11-06T12:30:01Z';
        assert.deepEqual(ids(await sample(lastDay)), []);
        assert.equal((await purgeExpired(t)).matches, 1);
        assert.deepEqual(ids(await sample(lastDay)), []);
        const dangling = await t.store.db
          .selectFrom('sample_matches as s')
          .leftJoin('matches as m', 'm.id', 's.match_id')
          .select('s.match_id')
          .where('m.id', 'is', null)
          .execute();
        assert.deepEqual(dangling, [], 'no list refers to a purged match');
      });
    } finally {
      await t.close();
    }
  });
}
