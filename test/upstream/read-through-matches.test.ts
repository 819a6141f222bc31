import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { createMirrorOf, startTestUpstream, type TestUpstream } from '../helpers/upstream.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import type { MatchInput } from '../../src/ingest/match-input.ts';

const DAY_MS = 86_400_000;

for (const database of testDatabases) {
  describe(`read-through of matches and telemetry (${database.name})`, () => {
    let upstream: TestUpstream;
    let mirror: TestApp;
    let match: MatchInput;
    const matchPath = (): string => `/shards/pc-b/matches/${match.id}`;

    before(async () => {
      upstream = await startTestUpstream(database);
      match = makeMatchInput({
        seed: 'mirrored',
        rosters: 3,
        telemetry: true,
        overrides: { createdAt: new Date(upstream.t.clock.now() - DAY_MS).toISOString() },
      });
      await ingestMatch(upstream.t, match);
      mirror = await createMirrorOf(database, upstream, {
        RETENTION_DAYS: '0',
      });
    });
    after(async () => {
      await mirror.close();
      await upstream.stop();
    });

    test('a match not held is fetched once with its telemetry and served as upstream sent it', async () => {
      const [first, concurrent] = await Promise.all([
        mirror.app.inject({ url: matchPath() }),
        mirror.app.inject({ url: matchPath() }),
      ]);
      assert.equal(first.statusCode, 200);
      assert.equal(concurrent.body, first.body);
      assert.equal(upstream.received.get('/shards/:shard/matches/:matchId'), 1);
      const original = await fetch(`${upstream.url}${matchPath()}`).then((r) => r.text());
      // Byte for byte, but for the links, which name this service.
      assert.equal(first.body, original.replaceAll(upstream.url, TEST_BASE_URL));

      const asset = first.json().included.find((r: { type: string }) => r.type === 'asset');
      const telemetryPath = asset.attributes.URL.slice(TEST_BASE_URL.length);
      const served = await mirror.app.inject({ url: telemetryPath });
      assert.equal(served.statusCode, 200);
      const upstreamFile = await fetch(`${upstream.url}${telemetryPath}`).then((r) => r.text());
      assert.equal(served.body, upstreamFile);

      const again = await mirror.app.inject({ url: matchPath() });
      assert.equal(again.body, first.body);
      assert.equal(upstream.received.get('/shards/:shard/matches/:matchId'), 2); // our own fetch above
    });

    test('an upstream 404 is our 404, and no key budget is spent on matches', async () => {
      const response = await mirror.app.inject({ url: '/shards/pc-b/matches/no-such-match' });
      assert.equal(response.statusCode, 404);
      assert.equal(response.json().errors[0].title, 'Not Found');
      assert.equal(upstream.refused(), 0);
    });

    test('archived: still served after the upstream stops and past its retention window', async () => {
      await upstream.stop();
      mirror.clock.advance(40 * DAY_MS);
      const response = await mirror.app.inject({ url: matchPath() });
      assert.equal(response.statusCode, 200);
      const asset = response.json().included.find((r: { type: string }) => r.type === 'asset');
      const file = await mirror.app.inject({
        url: asset.attributes.URL.slice(TEST_BASE_URL.length),
      });
      assert.equal(file.statusCode, 200);
      assert.equal(file.json()[0]._T, 'LogMatchDefinition');

      const missing = await mirror.app.inject({ url: '/shards/pc-b/matches/another-one' });
      assert.equal(missing.statusCode, 503);
      assert.ok(Number(missing.headers['retry-after']) > 0);
      assert.equal(missing.json().errors[0].title, 'Service Unavailable');
    });
  });
}
