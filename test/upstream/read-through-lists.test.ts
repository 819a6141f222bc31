import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import {
  createMirrorOf,
  currentSeasonOf,
  startTestUpstream,
  type TestUpstream,
} from '../helpers/upstream.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { buildSamples } from '../../src/jobs/build-samples.ts';
import { rebuildLeaderboards } from '../../src/jobs/rebuild-leaderboards.ts';
import { createMirror } from '../../src/upstream/mirror.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const SAMPLE_DAY = '2026-11-19T00:00:00Z';

for (const database of testDatabases) {
  describe(`read-through of seasons, leaderboards and samples (${database.name})`, () => {
    let upstream: TestUpstream;
    let mirror: TestApp;
    let season = '';
    const upstreamRequests = (): number =>
      [...upstream.received.values()].reduce((sum, count) => sum + count, 0);
    const get = (url: string) => mirror.app.inject({ url, headers: mirror.auth });
    const original = (url: string) => upstream.t.app.inject({ url, headers: upstream.t.auth });
    const urls = () => [
      '/shards/steam/seasons',
      '/shards/steam/leaderboards/duo',
      '/shards/steam/leaderboards/duo?page[number]=1',
      `/shards/pc-eu/leaderboards/${season}/duo`,
      '/shards/pc-eu/samples',
      `/shards/pc-eu/samples?filter[createdAt-start]=${SAMPLE_DAY}`,
    ];

    before(async () => {
      upstream = await startTestUpstream(database);
      // Six duos of the same twelve players the day before: a closed day's sample and a leaderboard.
      for (let m = 0; m < 6; m++) {
        const createdAt = new Date(upstream.t.clock.now() - DAY_MS - m * HOUR_MS).toISOString();
        await ingestMatch(
          upstream.t,
          makeMatchInput({
            seed: `lists-${m}`,
            rosters: 6,
            playersPerRoster: 2,
            winner: m,
            player: (seat) => ({ playerId: accountId(`l-${seat.index}`), name: `L${seat.index}` }),
            overrides: { createdAt },
          }),
        );
      }
      await buildSamples(upstream.t);
      await rebuildLeaderboards(upstream.t);
      season = await currentSeasonOf(upstream, 'steam');
      mirror = await createMirrorOf(database, upstream);
      upstream.received.clear();
    });
    after(async () => {
      await mirror.close();
      await upstream.stop();
    });

    test('each is fetched once, served as the upstream sent it, then locally', async () => {
      for (const url of urls()) {
        const expected = await original(url);
        assert.equal(expected.statusCode, 200, `the upstream has ${url}`);
        upstream.received.clear();
        const first = await get(url);
        assert.equal(first.statusCode, 200, url);
        assert.equal(upstreamRequests(), 1, `${url}: one upstream request`);
        upstream.received.clear();
        // As the upstream sent it, but for the links, which name this service.
        assert.equal(first.body, expected.body.replaceAll(upstream.url, TEST_BASE_URL), url);
        assert.equal(first.json().links.self, `${TEST_BASE_URL}${url}`);

        const second = await get(url);
        assert.equal(second.body, first.body, url);
        assert.equal(upstreamRequests(), 0, `${url}: served locally within the TTL`);
      }
      // The mirror built none of them itself: no match of its own, no job run.
      const built = await mirror.store.db.selectFrom('leaderboards').selectAll().execute();
      assert.equal(built.length, 0);
      assert.equal(upstream.refused(), 0, 'the upstream refused nothing');
    });

    test('concurrent requests for one missing list cause one upstream request', async () => {
      const url = '/shards/pc-na/seasons';
      const answers = await Promise.all([get(url), get(url), get(url), get(url)]);
      for (const answer of answers) assert.equal(answer.statusCode, 200);
      assert.equal(upstream.received.get('/shards/:shard/seasons'), 1);
      upstream.received.clear();
    });

    test('an upstream 404 is our 404 when nothing was built here', async () => {
      const url = '/shards/pc-na/samples?filter[createdAt-start]=2026-11-18T00:00:00Z';
      assert.equal((await original(url)).statusCode, 404);
      upstream.received.clear();
      assert.equal((await get(url)).statusCode, 404);
      assert.equal(upstreamRequests(), 1);
      assert.equal((await get(url)).statusCode, 404);
      assert.equal(upstreamRequests(), 1, 'the 404 is trusted for the TTL');
      upstream.received.clear();
    });

    test('past UPSTREAM_LIST_TTL_SECONDS a list is fetched again', async () => {
      mirror.clock.advance(HOUR_MS + 1000);
      const answer = await get('/shards/steam/seasons');
      assert.equal(answer.statusCode, 200);
      assert.equal(upstream.received.get('/shards/:shard/seasons'), 1);
      upstream.received.clear();
      await get('/shards/steam/seasons');
      assert.equal(upstreamRequests(), 0);
      // The 404 of a list lookup, past its TTL, is swept (a crawl pass does it).
      assert.equal(await createMirror(mirror)!.lists.dropExpiredMissing(), 1);
    });

    test('upstream stopped: stale with Age and Warning; else built here; else a 503', async () => {
      await upstream.stop();
      mirror.clock.advance(2 * HOUR_MS);
      const stale = await get('/shards/pc-eu/samples');
      assert.equal(stale.statusCode, 200);
      assert.ok(Number(stale.headers.age) >= 2 * 3600, String(stale.headers.age));
      assert.match(String(stale.headers.warning), /^110 /);
      const board = await get('/shards/steam/leaderboards/duo');
      assert.equal(board.statusCode, 200);
      assert.match(String(board.headers.warning), /^110 /);
      // Never recorded: this service's own season list (it has one), with the warning.
      const local = await get('/shards/pc-kakao/seasons');
      assert.equal(local.statusCode, 200);
      assert.equal(local.json().links.self, `${TEST_BASE_URL}/shards/pc-kakao/seasons`);
      assert.match(String(local.headers.warning), /^110 /);
      // Never recorded and nothing built here: the upstream's outage, with Retry-After.
      for (const url of [
        '/shards/pc-as/samples',
        '/shards/steam/leaderboards/solo',
        `/shards/pc-na/leaderboards/${season}/squad`,
      ]) {
        const never = await get(url);
        assert.ok([503, 429].includes(never.statusCode), `${url}: ${never.statusCode}`);
        assert.ok(Number(never.headers['retry-after']) > 0, url);
        assert.equal(never.headers.warning, undefined, url);
      }
      // Never recorded, but drawn here from a match of the mirror's own: served, with the warning.
      const createdAt = new Date(mirror.clock.now() - DAY_MS).toISOString();
      const own = makeMatchInput({
        seed: 'mirrored',
        overrides: { createdAt, regionShard: 'pc-as' },
      });
      await ingestMatch(mirror, own);
      await buildSamples(mirror);
      const drawn = await get('/shards/pc-as/samples');
      assert.equal(drawn.statusCode, 200);
      assert.deepEqual(
        drawn.json().data.relationships.matches.data.map((m: { id: string }) => m.id),
        [own.id],
      );
      assert.match(String(drawn.headers.warning), /^110 /);
    });
  });
}
