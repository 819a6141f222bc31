import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { assertSameShape, HAVE_FIXTURES, loadFixture } from '../helpers/fixture-shapes.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import type { MatchInput } from '../../src/ingest/match-input.ts';

const DAY_MS = 86_400_000;
const RECORDED_MATCH = 'match/pubgkt--matches-src-commonTest-resources-match_squad_response.json';

interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
}

for (const database of testDatabases) {
  describe(`GET /shards/:shard/matches/:id (${database.name})`, () => {
    let t: TestApp;
    let match: MatchInput;
    let url: string;
    /** The match's createdAt, epoch ms: retention counts from it. */
    let createdAt: number;
    before(async () => {
      t = await createTestApp(database);
      createdAt = t.clock.now() - DAY_MS;
      match = makeMatchInput({
        seed: 'matches-route',
        rosters: 4,
        playersPerRoster: 2,
        telemetry: true,
        overrides: { createdAt: new Date(createdAt).toISOString() },
      });
      await ingestMatch(t, match);
      url = `/shards/pc-b/matches/${match.id}`;
    });
    after(() => t.close());

    test('serves the match without a key, and ignores a key that is sent', async () => {
      for (const headers of [{}, { authorization: 'Bearer not-a-real-key' }]) {
        const response = await t.app.inject({ url, headers });
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['content-type'], 'application/vnd.api+json');
        assert.equal(response.headers['x-ratelimit-limit'], undefined);
        const body = response.json();
        assert.equal(body.data.type, 'match');
        assert.equal(body.data.id, match.id);
        assert.equal(body.data.attributes.shardId, 'pc-b');
        assert.equal(body.links.self, `${TEST_BASE_URL}${url}`);
        assert.deepEqual(body.meta, {});
        const types = (body.included as Resource[]).map((resource) => resource.type);
        assert.equal(types.filter((type) => type === 'participant').length, 8);
        assert.equal(types.filter((type) => type === 'roster').length, 4);
        assert.equal(types.filter((type) => type === 'asset').length, 1);
      }
    });

    test('sends the stored gzip to clients that accept it, and the same JSON uncompressed otherwise', async () => {
      const plain = await t.app.inject({ url });
      const gzipped = await t.app.inject({
        url,
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      });
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(gzipped.headers['content-encoding'], 'gzip');
      for (const response of [plain, gzipped]) {
        assert.match(String(response.headers.vary), /accept-encoding/i);
        assert.equal(Number(response.headers['content-length']), response.rawPayload.length);
      }
      assert.deepEqual(zlib.gunzipSync(gzipped.rawPayload), plain.rawPayload);
      const refused = await t.app.inject({
        url,
        headers: { 'accept-encoding': 'gzip;q=0, identity' },
      });
      assert.equal(refused.headers['content-encoding'], undefined);
      assert.deepEqual(refused.rawPayload, plain.rawPayload);
    });

    test('answers the same bytes from its cache as on the first read', async () => {
      const first = await t.app.inject({ url: `/shards/pc-b/matches/${match.id}?first` });
      const again = await t.app.inject({ url: `/shards/pc-b/matches/${match.id}?again` });
      assert.deepEqual(again.rawPayload, first.rawPayload);
      assert.equal(again.headers.etag, first.headers.etag);
    });

    test('mirrors the accepted media type, and refuses a foreign one', async () => {
      const json = await t.app.inject({ url, headers: { accept: 'application/json' } });
      assert.equal(json.statusCode, 200);
      assert.equal(json.headers['content-type'], 'application/json');
      const html = await t.app.inject({ url, headers: { accept: 'text/html' } });
      assert.equal(html.statusCode, 415);
    });

    test('carries a strong ETag per encoding and answers a matching If-None-Match with 304', async () => {
      const plain = await t.app.inject({ url });
      const gzipped = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      const etag = String(plain.headers.etag);
      assert.match(etag, /^"[^"]+"$/);
      assert.match(String(gzipped.headers.etag), /^"[^"]+"$/);
      assert.notEqual(gzipped.headers.etag, etag);

      const notModified = await t.app.inject({ url, headers: { 'if-none-match': etag } });
      assert.equal(notModified.statusCode, 304);
      assert.equal(notModified.rawPayload.length, 0);
      assert.equal(notModified.headers.etag, etag);
      const listed = await t.app.inject({
        url,
        headers: { 'if-none-match': `"other", ${gzipped.headers.etag}`, 'accept-encoding': 'gzip' },
      });
      assert.equal(listed.statusCode, 304);
      const stale = await t.app.inject({ url, headers: { 'if-none-match': '"stale"' } });
      assert.equal(stale.statusCode, 200);
    });

    test('may be cached long, but not past the end of its retention window', async () => {
      const response = await t.app.inject({ url });
      const maxAge = Number(/max-age=(\d+)/.exec(String(response.headers['cache-control']))?.[1]);
      assert.match(String(response.headers['cache-control']), /^public, /);
      const remainingS = (createdAt + 14 * DAY_MS - t.clock.now()) / 1000;
      assert.ok(maxAge > 0 && maxAge <= remainingS, `max-age ${maxAge} within ${remainingS} s`);
      assert.ok(maxAge > remainingS - 2);
    });

    test('an alias shard is echoed in the document and its links; the telemetry URL is the file’s one URL', async () => {
      const response = await t.app.inject({ url: `/shards/steam/matches/${match.id}` });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers.deprecation, undefined);
      const body = response.json();
      assert.equal(body.data.attributes.shardId, 'steam');
      assert.equal(body.data.links.self, `${TEST_BASE_URL}/shards/steam/matches/${match.id}`);
      assert.equal(body.links.self, `${TEST_BASE_URL}/shards/steam/matches/${match.id}`);
      for (const resource of body.included as Resource[]) {
        if (resource.type !== 'asset') assert.equal(resource.attributes.shardId, 'steam');
      }
      const asset = (body.included as Resource[]).find((resource) => resource.type === 'asset')!;
      assert.match(
        String(asset.attributes.URL),
        /\/telemetry\/bluehole-pubg\/pc-b\/\d{4}\/\d\d\/\d\d\/\d\d\/\d\d\//,
      );
      assert.ok(String(asset.attributes.URL).endsWith(`/${asset.id}-telemetry.json`));
    });

    test('a platform-region shard is answered as its platform, marked deprecated', async () => {
      const response = await t.app.inject({ url: `/shards/pc-eu/matches/${match.id}` });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers.deprecation, 'true');
      assert.equal(response.json().data.id, match.id);
      const platform = await t.app.inject({ url });
      assert.equal(platform.headers.deprecation, undefined);
    });

    test('a match of another platform is not found on this one', async () => {
      for (const shard of ['console-a', 'psn', 'pc-a', 'tournament']) {
        const response = await t.app.inject({ url: `/shards/${shard}/matches/${match.id}` });
        assert.equal(response.statusCode, 404, shard);
        assert.equal(response.json().errors[0].title, 'Not Found');
      }
    });

    test('an unknown shard is a 404 naming it', async () => {
      const response = await t.app.inject({ url: `/shards/moon/matches/${match.id}` });
      assert.equal(response.statusCode, 404);
      const body = response.json();
      assert.equal(body.errors[0].title, 'Not Found');
      assert.match(body.errors[0].detail, /moon/);
      assert.equal(body.data, undefined);
    });

    test('an unknown match is a 404 JSON:API error, gzipped when gzip is accepted', async () => {
      const response = await t.app.inject({
        url: '/shards/pc-b/matches/00000000-0000-4000-8000-000000000000',
      });
      assert.equal(response.statusCode, 404);
      assert.equal(response.headers['content-type'], 'application/vnd.api+json');
      assert.equal(response.json().errors[0].title, 'Not Found');
      const gzipped = await t.app.inject({
        url: '/shards/pc-b/matches/00000000-0000-4000-8000-000000000000',
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.equal(gzipped.headers['content-encoding'], 'gzip');
      assert.equal(
        JSON.parse(zlib.gunzipSync(gzipped.rawPayload).toString()).errors[0].title,
        'Not Found',
      );
    });

    test('is served to the last millisecond of the retention window and not after, even from the cache', async () => {
      const now = t.clock.now();
      try {
        t.clock.set(createdAt + 14 * DAY_MS);
        assert.equal((await t.app.inject({ url })).statusCode, 200);
        t.clock.set(createdAt + 14 * DAY_MS + 1);
        const expired = await t.app.inject({ url });
        assert.equal(expired.statusCode, 404);
        assert.equal(expired.json().errors[0].title, 'Not Found');
      } finally {
        t.clock.set(now);
      }
      assert.equal((await t.app.inject({ url })).statusCode, 200);
    });

    test('tournament matches are served on the tournament shard', async () => {
      const tournamentMatch = makeMatchInput({
        seed: 'matches-route-tournament',
        overrides: {
          createdAt: new Date(createdAt).toISOString(),
          platformShard: 'tournament',
          regionShard: 'pc-tournament',
          tournamentId: 'eu-test26',
        },
      });
      await ingestMatch(t, tournamentMatch);
      const response = await t.app.inject({
        url: `/shards/tournament/matches/${tournamentMatch.id}`,
      });
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().data.attributes.shardId, 'tournament');
      const elsewhere = await t.app.inject({ url: `/shards/pc-b/matches/${tournamentMatch.id}` });
      assert.equal(elsewhere.statusCode, 404);
    });

    test(
      'has the shape of a recorded match, member by member',
      { skip: !HAVE_FIXTURES },
      async () => {
        const ours = (await t.app.inject({ url: `/shards/steam/matches/${match.id}` })).json();
        const recorded = loadFixture(RECORDED_MATCH) as typeof ours;
        const { included: ourIncluded, ...ourRest } = ours;
        const { included: recordedIncluded, ...recordedRest } = recorded;
        assertSameShape(ourRest, recordedRest);
        for (const type of ['participant', 'roster', 'asset']) {
          const first = (included: Resource[]): Resource =>
            included.find((resource) => resource.type === type)!;
          assertSameShape(first(ourIncluded), first(recordedIncluded), {}, `included[${type}]`);
        }
      },
    );
  });
}
