import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { HAVE_FIXTURES, assertSameShape, loadFixture } from '../helpers/fixture-shapes.ts';
import { listSeasons } from '../../src/store/seasons.ts';

const HOUR = 3_600_000;

interface SeasonResource {
  type: string;
  id: string;
  attributes: { isCurrentSeason: boolean; isOffseason: boolean };
}

const ids = (body: { data: SeasonResource[] }): string[] => body.data.map((season) => season.id);
const currentIds = (body: { data: SeasonResource[] }): string[] =>
  body.data.filter((season) => season.attributes.isCurrentSeason).map((season) => season.id);

for (const database of testDatabases) {
  describe(`seasons (${database.name})`, () => {
    let t: TestApp;
    let now: number;
    const get = (url: string, headers: Record<string, string> = t.auth) =>
      t.app.inject({ url, headers });

    /** The season that starts after `now` on pc-b, as stored. */
    async function nextPcSeason(): Promise<{ id: string; startsAt: number }> {
      const upcoming = (await listSeasons(t.store.db, 'pc-b')).filter(
        (season) => season.startsAt !== null && season.startsAt > now,
      );
      assert.equal(upcoming.length, 1, 'the table lists exactly one upcoming season');
      return upcoming[0] as { id: string; startsAt: number };
    }

    before(async () => {
      t = await createTestApp(database);
      now = t.clock.now();
    });
    after(() => t.close());

    test('a key is required', async () => {
      for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong' }]) {
        const response = await get('/shards/pc-b/seasons', headers);
        assert.equal(response.statusCode, 401);
        assert.equal(response.json().errors[0].title, 'Unauthorized');
      }
    });

    test('the PC list: oldest first, spec id formats, exactly one current season', async () => {
      const response = await get('/shards/pc-b/seasons');
      assert.equal(response.statusCode, 200);
      const body = response.json();
      const list = ids(body);
      assert.equal(list[0], 'division.bro.official.2017-beta');
      const last2018 = list.indexOf('division.bro.official.2018-09');
      assert.ok(last2018 > 0);
      assert.equal(list[last2018 + 1], 'division.bro.official.pc-2018-01');
      for (const id of list.slice(0, last2018 + 1)) {
        assert.match(id, /^division\.bro\.official\.(2017-(beta|pre\d)|\d{4}-\d{2})$/);
      }
      for (const id of list.slice(last2018 + 1)) {
        assert.match(id, /^division\.bro\.official\.pc-2018-\d{2}$/);
      }
      for (const season of body.data as SeasonResource[]) {
        assert.equal(season.type, 'season');
        assert.equal(season.attributes.isOffseason, false);
      }
      const current = currentIds(body);
      assert.equal(current.length, 1);
      // The current season is the last one already started; only the upcoming one follows it.
      assert.equal(list.indexOf(current[0]!), list.length - 2);
      assert.equal(list.at(-1), (await nextPcSeason()).id);
      assert.deepEqual(body.links, { self: `${TEST_BASE_URL}/shards/pc-b/seasons` });
      assert.deepEqual(body.meta, {});
    });

    test('console platforms have their own list, with one current season', async () => {
      const body = (await get('/shards/console-a/seasons')).json();
      const list = ids(body);
      assert.ok(list.includes('division.bro.official.playstation-01'));
      assert.ok(list.some((id) => /^division\.bro\.official\.console-\d{2}$/.test(id)));
      assert.ok(!list.some((id) => id.includes('.pc-')));
      assert.equal(currentIds(body).length, 1);
    });

    test('region shards and aliases get the platform list, linked as requested', async () => {
      const platform = (await get('/shards/pc-b/seasons')).json();
      for (const spelling of ['pc-eu', 'steam', 'pc-kakao']) {
        const response = await get(`/shards/${spelling}/seasons`);
        assert.equal(response.statusCode, 200, spelling);
        const body = response.json();
        if (spelling !== 'pc-kakao') assert.deepEqual(body.data, platform.data, spelling);
        assert.equal(body.links.self, `${TEST_BASE_URL}/shards/${spelling}/seasons`);
      }
      const xbox = (await get('/shards/xbox/seasons')).json();
      assert.deepEqual(xbox.data, (await get('/shards/console-b/seasons')).json().data);
    });

    test('an unknown shard is a 404 naming it', async () => {
      const response = await get('/shards/pc-xx/seasons');
      assert.equal(response.statusCode, 404);
      assert.deepEqual(response.json(), {
        errors: [{ title: 'Not Found', detail: "Unknown shard 'pc-xx'" }],
      });
    });

    test('cacheable for a day, but never past the start of the next season', async () => {
      const daily = await get('/shards/pc-b/seasons');
      const next = await nextPcSeason();
      assert.ok(
        next.startsAt - now > 86_400_000,
        'the test assumes the next season is over a day away',
      );
      assert.equal(daily.headers['cache-control'], 'public, max-age=86400');
      t.clock.set(next.startsAt - HOUR);
      try {
        const late = await get('/shards/pc-b/seasons');
        assert.equal(late.headers['cache-control'], 'public, max-age=3600');
      } finally {
        t.clock.set(now);
      }
    });

    test('the current season moves on as soon as the next one starts', async () => {
      const before = currentIds((await get('/shards/pc-b/seasons')).json());
      const next = await nextPcSeason();
      t.clock.set(next.startsAt - 60_000);
      try {
        assert.deepEqual(currentIds((await get('/shards/pc-b/seasons')).json()), before);
        t.clock.set(next.startsAt);
        const after = currentIds((await get('/shards/pc-b/seasons')).json());
        assert.notDeepEqual(after, before);
        assert.deepEqual(after, [next.id]);
      } finally {
        t.clock.set(now);
      }
      assert.deepEqual(currentIds((await get('/shards/pc-b/seasons')).json()), before);
    });

    test('an operator’s change to the table shows within an hour', async () => {
      const current = currentIds((await get('/shards/pc-b/seasons')).json())[0]!;
      await t.store.db
        .updateTable('seasons')
        .set({ is_offseason: 1 })
        .where('platform', '=', 'pc-b')
        .where('id', '=', current)
        .execute();
      const flagged = (body: { data: SeasonResource[] }) =>
        body.data.find((season) => season.id === current)!.attributes.isOffseason;
      try {
        assert.equal(
          flagged((await get('/shards/pc-b/seasons')).json()),
          false,
          'served from the cache',
        );
        t.clock.set(now + HOUR + 1);
        assert.equal(flagged((await get('/shards/pc-b/seasons')).json()), true, 'reloaded');
      } finally {
        t.clock.set(now);
        await t.store.db
          .updateTable('seasons')
          .set({ is_offseason: 0 })
          .where('platform', '=', 'pc-b')
          .where('id', '=', current)
          .execute();
      }
    });

    test(
      'the document has the shape of the recorded responses',
      { skip: !HAVE_FIXTURES },
      async () => {
        const body = (await get('/shards/steam/seasons')).json();
        assertSameShape(body, loadFixture('seasons/pubg-python--tests-season_response.json'));
      },
    );
  });
}
