import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import { createMirrorOf, startTestUpstream, type TestUpstream } from '../helpers/upstream.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';

const DAY_MS = 86_400_000;
const PLAYER_ROUTES = ['/shards/:shard/players', '/shards/:shard/players/:accountId'];

for (const database of testDatabases) {
  describe(`read-through of players with a 10-per-minute upstream key (${database.name})`, () => {
    let upstream: TestUpstream;
    let mirror: TestApp;
    const playerRequests = (): number =>
      PLAYER_ROUTES.reduce((sum, route) => sum + (upstream.received.get(route) ?? 0), 0);

    before(async () => {
      upstream = await startTestUpstream(database);
      const createdAt = new Date(upstream.t.clock.now() - DAY_MS).toISOString();
      for (const seed of ['one', 'two']) {
        await ingestMatch(
          upstream.t,
          makeMatchInput({ seed, telemetry: true, overrides: { createdAt } }),
        );
      }
      mirror = await createMirrorOf(database, upstream);
    });
    after(async () => {
      await mirror.close();
      await upstream.stop();
    });

    test('the first lookup is fetched, the second is served locally without upstream budget', async () => {
      const url = `/shards/pc-b/players/${accountId(0)}`;
      const first = await mirror.app.inject({ url, headers: mirror.auth });
      assert.equal(first.statusCode, 200);
      assert.equal(playerRequests(), 1);
      const original = await upstream.t.app.inject({ url, headers: upstream.t.auth });
      upstream.received.clear();
      assert.deepEqual(
        first.json().data.relationships.matches.data,
        original.json().data.relationships.matches.data,
      );
      assert.equal(first.json().data.attributes.name, 'Player0');
      // As the upstream sent it (recorded), but for the links, which name this service.
      assert.equal(first.body, original.body.replaceAll(upstream.url, TEST_BASE_URL));

      const second = await mirror.app.inject({ url, headers: mirror.auth });
      assert.equal(second.statusCode, 200);
      assert.equal(second.body, first.body);
      assert.equal(playerRequests(), 0, 'no upstream request within the TTL');

      const byName = await mirror.app.inject({
        url: '/shards/pc-b/players?filter[playerNames]=Player1',
        headers: mirror.auth,
      });
      assert.equal(byName.statusCode, 200);
      assert.equal(byName.json().data[0].id, accountId(1));
    });

    test('with the budget spent: a 429 with Retry-After, and no request the upstream refuses', async () => {
      let answer = null;
      for (let i = 0; i < 12 && answer === null; i++) {
        const response = await mirror.app.inject({
          url: `/shards/pc-b/players/account.unknown${i}`,
          headers: mirror.auth,
        });
        if (response.statusCode === 429) answer = response;
        else assert.equal(response.statusCode, 404);
      }
      assert.ok(answer, 'the mirror ran out of upstream budget');
      assert.ok(Number(answer.headers['retry-after']) > 0);
      assert.equal(answer.json().errors[0].title, 'Too Many Requests');
      assert.equal(answer.headers.warning, undefined, 'an error is not a stale answer');
      assert.equal(answer.headers.age, undefined);
      assert.ok(playerRequests() <= 10);
      assert.equal(upstream.refused(), 0);
    });

    test('past its TTL with the upstream down, the stored player is served stale', async () => {
      await upstream.stop();
      mirror.clock.advance(3600_000);
      const response = await mirror.app.inject({
        url: `/shards/pc-b/players/${accountId(0)}`,
        headers: mirror.auth,
      });
      assert.equal(response.statusCode, 200);
      assert.ok(Number(response.headers.age) >= 3600);
      assert.match(String(response.headers.warning), /^110 /);
      const unknown = await mirror.app.inject({
        url: '/shards/pc-b/players/account.never-seen',
        headers: mirror.auth,
      });
      // The budget is still spent (the window has real minutes), so the upstream is not even tried.
      assert.equal(unknown.statusCode, 429);
      assert.ok(Number(unknown.headers['retry-after']) > 0);
      assert.equal(unknown.headers.warning, undefined, 'Age and Warning only on stale successes');
      assert.equal(unknown.headers.age, undefined);
    });
  });
}
