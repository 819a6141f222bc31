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
import { ingestEntity } from '../../src/ingest/ingest-entity.ts';
import { findStoredMatch } from '../../src/store/ingest-writes.ts';

const DAY_MS = 86_400_000;
const CLAN = `clan.${'c'.repeat(32)}`;
const UNKNOWN = `account.${'f'.repeat(32)}`;

/** Resolves once the mirror stores these matches with telemetry (archived in the background). */
export async function archived(mirror: TestApp, ids: readonly string[]): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const stored = await Promise.all(ids.map((id) => findStoredMatch(mirror.store.db, id)));
    if (stored.every((match) => match !== null && match.telemetryKey !== null)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`matches ${ids.join(', ')} were not archived`);
}

for (const database of testDatabases) {
  describe(`read-through of stats, mastery and clans, kept as recorded (${database.name})`, () => {
    let upstream: TestUpstream;
    let mirror: TestApp;
    let season = '';
    const upstreamRequests = (): number =>
      [...upstream.received.values()].reduce((sum, count) => sum + count, 0);
    const get = (url: string) => mirror.app.inject({ url, headers: mirror.auth });
    const original = (url: string) => upstream.t.app.inject({ url, headers: upstream.t.auth });

    before(async () => {
      upstream = await startTestUpstream(database);
      const createdAt = new Date(upstream.t.clock.now() - DAY_MS).toISOString();
      for (const seed of ['one', 'two']) {
        await ingestMatch(
          upstream.t,
          makeMatchInput({ seed, telemetry: true, overrides: { createdAt } }),
        );
      }
      await ingestEntity(upstream.t, {
        kind: 'clan',
        platform: 'pc-b',
        id: CLAN,
        name: 'Night Owls',
        tag: 'OWL',
        level: 7,
        members: [accountId(0), accountId(1)],
      });
      season = await currentSeasonOf(upstream, 'pc-b');
      mirror = await createMirrorOf(database, upstream);
      upstream.received.clear();
    });
    after(async () => {
      await mirror.close();
      await upstream.stop();
    });

    test('each kind is fetched once, served as the upstream sent it, then locally', async () => {
      const player = accountId(0);
      const urls = [
        `/shards/pc-b/players/${player}/seasons/${season}`,
        `/shards/pc-b/players/${player}/seasons/lifetime`,
        `/shards/pc-b/players/${player}/seasons/${season}/ranked`,
        `/shards/pc-b/players/${player}/weapon_mastery`,
        `/shards/pc-b/players/${player}/survival_mastery`,
        `/shards/pc-b/clans/${CLAN}`,
        `/shards/pc-b/seasons/${season}/gameMode/duo/players?filter[playerIds]=${player},${accountId(1)}`,
      ];
      for (const url of urls) {
        const first = await get(url);
        assert.equal(first.statusCode, 200, url);
        assert.equal(upstreamRequests(), 1, `${url}: one upstream request`);
        const expected = await original(url);
        upstream.received.clear();
        // Byte for byte as the upstream sent it, but for the links, which name this service.
        assert.equal(first.body, expected.body.replaceAll(upstream.url, TEST_BASE_URL), url);
        assert.equal(first.json().links.self, `${TEST_BASE_URL}${url}`);

        const second = await get(url);
        assert.equal(second.body, first.body, url);
        assert.equal(upstreamRequests(), 0, `${url}: served locally within the TTL`);
      }
    });

    test('players and stats stay as recorded while the mirror holds other matches (not re-derived)', async () => {
      const url = `/shards/pc-b/players/${accountId(0)}/seasons/${season}`;
      const before = await get(url);
      // A match only this service holds, played before the recording: counted by derived stats.
      const createdAt = new Date(mirror.clock.now() - 2 * DAY_MS).toISOString();
      const local = makeMatchInput({ seed: 'local only', overrides: { createdAt } });
      await ingestMatch(mirror, local);
      const playerAnswer = await get(`/shards/pc-b/players/${accountId(0)}`);
      const ids = (playerAnswer.json().data.relationships.matches.data as { id: string }[]).map(
        (ref) => ref.id,
      );
      assert.equal(ids.length, 2, 'the match list as upstream said it');
      assert.ok(!ids.includes(local.id));
      await archived(mirror, ids);
      upstream.received.clear();
      mirror.clock.advance(61_000); // past the renderings' longest life, within the stats TTL
      const after = await get(url);
      assert.equal(after.body, before.body);
      assert.equal(upstreamRequests(), 0);
    });

    test('concurrent requests for one missing document cause one upstream request', async () => {
      const url = `/shards/pc-b/players/${accountId(1)}/survival_mastery`;
      const answers = await Promise.all([get(url), get(url), get(url), get(url)]);
      for (const answer of answers) assert.equal(answer.statusCode, 200);
      assert.equal(upstream.received.get('/shards/:shard/players/:accountId/survival_mastery'), 1);
      upstream.received.clear();
    });

    test('an upstream 404 is our 404, trusted for the TTL', async () => {
      const url = `/shards/pc-b/players/${UNKNOWN}/weapon_mastery`;
      assert.equal((await get(url)).statusCode, 404);
      assert.equal(upstreamRequests(), 1);
      assert.equal((await get(url)).statusCode, 404);
      assert.equal(upstreamRequests(), 1);
      upstream.received.clear();
      assert.equal(upstream.refused(), 0, 'the upstream refused nothing');
    });

    test('past the TTL with the upstream down: stale with Age and Warning, else a 503', async () => {
      await upstream.stop();
      mirror.clock.advance(2 * 3600_000);
      const url = `/shards/pc-b/players/${accountId(0)}/weapon_mastery`;
      const stale = await get(url);
      assert.equal(stale.statusCode, 200);
      assert.ok(Number(stale.headers.age) >= 2 * 3600);
      assert.match(String(stale.headers.warning), /^110 /);
      // A stale rendering is not kept by the document cache: the next request says so again.
      const again = await get(url);
      assert.equal(again.body, stale.body);
      assert.match(String(again.headers.warning), /^110 /);
      assert.ok(Number(again.headers.age) >= 2 * 3600);
      const never = await get(`/shards/pc-b/players/account.${'e'.repeat(32)}/survival_mastery`);
      assert.ok([503, 429].includes(never.statusCode), String(never.statusCode));
      assert.ok(Number(never.headers['retry-after']) > 0);
      assert.equal(never.headers.warning, undefined);
    });
  });
}
