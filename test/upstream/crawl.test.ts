import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { createMirrorOf, startTestUpstream, type TestUpstream } from '../helpers/upstream.ts';
import { populateDemo } from '../../src/demo/populate-demo.ts';
import { runJobOnce } from '../../src/jobs/scheduler.ts';
import { buildSamplesJob } from '../../src/jobs/build-samples.ts';
import { createMirror, type Mirror } from '../../src/upstream/mirror.ts';

import { DEFAULT_CRAWL_SHARDS, crawlUpstream } from '../../src/upstream/mirror-crawl.ts';
import { watchPlayers, listWatchedPlayers } from '../../src/store/mirror-state.ts';

/** The match ids of every shard's upstream sample, asked with the upstream's own test key. */
async function sampledMatchIds(upstream: TestUpstream): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const shard of DEFAULT_CRAWL_SHARDS) {
    const response = await upstream.t.app.inject({
      url: `/shards/${shard}/samples`,
      headers: upstream.t.auth,
    });
    if (response.statusCode !== 200) continue;
    for (const ref of response.json().data.relationships.matches.data) ids.set(ref.id, shard);
  }
  return ids;
}

for (const database of testDatabases) {
  describe(`gamedata mirror: a crawl pass (${database.name})`, () => {
    let upstream: TestUpstream;
    let mirrorApp: TestApp;
    let mirror: Mirror;

    before(async () => {
      // Two passes over four shards and a watched player's five lookups in one minute.
      upstream = await startTestUpstream(database, {}, 30);
      await populateDemo(upstream.t, {
        seed: 5,
        scale: 0.02,
        now: upstream.t.clock.now(),
        progress: false,
      });
      await runJobOnce(upstream.t, buildSamplesJob, 'test');
      mirrorApp = await createMirrorOf(database, upstream);
      mirror = createMirror(mirrorApp)!;
    });
    after(async () => {
      await mirrorApp.close();
      await upstream.stop();
    });

    test('stores every sampled match and its telemetry byte for byte, with no upstream 429', async () => {
      const expected = await sampledMatchIds(upstream);
      assert.ok(expected.size > 0, 'the upstream has sampled matches');
      const summary = await crawlUpstream(mirrorApp, mirror, { shards: DEFAULT_CRAWL_SHARDS });
      assert.equal(summary.matches.stored, expected.size);
      assert.equal(summary.matches.missing, 0);
      assert.equal(upstream.refused(), 0);

      for (const [id, shard] of expected) {
        const path = `/shards/${shard}/matches/${id}`;
        const original = await upstream.t.app.inject({ url: path });
        const served = await mirrorApp.app.inject({ url: path });
        assert.equal(served.statusCode, 200, path);
        assert.equal(served.body, original.body.replaceAll(upstream.url, TEST_BASE_URL));
        const asset = original.json().included.find((r: { type: string }) => r.type === 'asset');
        const filePath = asset.attributes.URL.slice(upstream.url.length);
        const file = await mirrorApp.app.inject({ url: filePath });
        const originalFile = await upstream.t.app.inject({ url: filePath });
        assert.equal(file.statusCode, 200);
        assert.ok(file.rawPayload.equals(originalFile.rawPayload), filePath);
      }
    });

    test('a second pass skips the samples it finished and stores nothing twice', async () => {
      const sent = upstream.received.get('/shards/:shard/matches/:matchId') ?? 0;
      const summary = await crawlUpstream(mirrorApp, mirror, { shards: DEFAULT_CRAWL_SHARDS });
      assert.equal(summary.matches.stored, 0);
      assert.ok(summary.skippedSamples > 0);
      assert.equal(upstream.received.get('/shards/:shard/matches/:matchId') ?? 0, sent);
    });

    test('watched players are looked up, their matches archived, their mastery recorded', async () => {
      const players = await upstream.t.app.inject({
        url: '/shards/pc-b/samples',
        headers: upstream.t.auth,
      });
      const matchId = players.json().data.relationships.matches.data[0].id;
      const match = (
        await upstream.t.app.inject({ url: `/shards/pc-b/matches/${matchId}` })
      ).json();
      const accountId = match.included
        .filter((r: { type: string }) => r.type === 'participant')
        .map((r: { attributes: { stats: { playerId: string } } }) => r.attributes.stats.playerId)
        .find((id: string) => id.startsWith('account.'));
      // Its name now (a demo player may have been renamed since the match).
      const player = await upstream.t.app.inject({
        url: `/shards/pc-b/players/${accountId}`,
        headers: upstream.t.auth,
      });
      const name = player.json().data.attributes.name;
      await watchPlayers(mirrorApp.store.db, 'pc-b', [name], mirrorApp.clock.now());
      const summary = await crawlUpstream(mirrorApp, mirror, { shards: [] });
      assert.equal(summary.watched, 1);
      assert.ok(summary.recordings >= 2, 'weapon and survival mastery at least');
      const masteryPath = `/shards/pc-b/players/${accountId}/weapon_mastery`;
      const original = await upstream.t.app.inject({ url: masteryPath, headers: upstream.t.auth });
      upstream.received.clear();
      const served = await mirrorApp.app.inject({ url: masteryPath, headers: mirrorApp.auth });
      assert.equal(served.statusCode, 200);
      assert.equal(served.body, original.body.replaceAll(upstream.url, TEST_BASE_URL));
      // The pass's recordings are the routes' too: served within their TTL without a request.
      const lifetimePath = `/shards/pc-b/players/${accountId}/seasons/lifetime`;
      const lifetime = await mirrorApp.app.inject({ url: lifetimePath, headers: mirrorApp.auth });
      assert.equal(lifetime.statusCode, 200);
      const playerPath = `/shards/pc-b/players/${accountId}`;
      const recorded = await mirrorApp.app.inject({ url: playerPath, headers: mirrorApp.auth });
      assert.equal(recorded.json().data.attributes.name, name);
      assert.equal(upstream.received.size, 0, [...upstream.received.keys()].join(', '));
      const [watched] = await listWatchedPlayers(mirrorApp.store.db);
      assert.ok(watched?.accountId?.startsWith('account.'));
      assert.equal(upstream.refused(), 0);
    });
  });
}
