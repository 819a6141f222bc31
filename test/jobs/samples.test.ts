import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { buildSamples, buildSamplesJob } from '../../src/jobs/build-samples.ts';
import { REGIONS, type Platform } from '../../src/domain/shards.ts';

const DAY = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const at = (text: string): number => Date.parse(text);

/** Ingests a match of `region` (on the region's platform) created at `createdAt`; returns its id. */
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

/** Every stored list with its entries, by `<region>@<ISO time>`. */
async function storedLists(
  t: TestApp,
): Promise<Map<string, { id: string; windowStart: number; revision: number; matches: string[] }>> {
  const lists = await t.store.db.selectFrom('sample_lists').selectAll().execute();
  const entries = await t.store.db
    .selectFrom('sample_matches')
    .selectAll()
    .orderBy('position')
    .execute();
  const byKey = new Map<
    string,
    { id: string; windowStart: number; revision: number; matches: string[] }
  >();
  for (const list of lists) {
    byKey.set(`${list.region}@${iso(Number(list.created_at))}`, {
      id: list.id,
      windowStart: Number(list.window_start),
      revision: Number(list.revision),
      matches: entries
        .filter((entry) => entry.sample_id === list.id)
        .map((entry) => entry.match_id),
    });
  }
  return byKey;
}

for (const database of testDatabases) {
  // The test clock stands at 2026-11-20T12:00:00Z: the latest closed day ends at midnight before it.
  test(`[${database.name}] samples: one list per region for the latest day and each day of the retention window with matches, of that region's matches of that day`, async () => {
    const t = await createTestApp(database, { SAMPLE_SIZE: '3' });
    try {
      const eu = [];
      for (let i = 0; i < 6; i++)
        eu.push(
          await ingestIn(t, `eu${i}`, 'pc-b', 'pc-eu', at('2026-11-19T01:00:00Z') + i * 3_600_000),
        );
      const euToday = await ingestIn(t, 'eu-today', 'pc-b', 'pc-eu', at('2026-11-20T06:00:00Z'));
      const euEdge = await ingestIn(t, 'eu-edge', 'pc-b', 'pc-eu', at('2026-11-20T00:00:00Z'));
      const na = [
        await ingestIn(t, 'na0', 'pc-b', 'pc-na', at('2026-11-18T23:59:59Z')),
        await ingestIn(t, 'na1', 'pc-b', 'pc-na', at('2026-11-18T00:00:00Z')),
      ];
      const psn = await ingestIn(
        t,
        'psn0',
        'console-a',
        'console-a-eu',
        at('2026-11-19T10:00:00Z'),
      );
      // Two matches of 6 November, then the clock moves so that one is a minute outside retention.
      const oldOut = await ingestIn(t, 'old-out', 'pc-b', 'pc-eu', at('2026-11-06T12:09:00Z'));
      const oldIn = await ingestIn(t, 'old-in', 'pc-b', 'pc-eu', at('2026-11-06T12:11:00Z'));
      t.clock.set('2026-11-20T12:10:00Z');

      assert.equal(await buildSamplesJob.outputMissing(t), true, 'nothing built yet');
      const result = await buildSamples(t);
      assert.equal(
        result.built,
        REGIONS.length * 3,
        'every region, for 7, 19 and 20 November: the days with matches and the latest',
      );
      assert.equal(result.filled, 0);

      const lists = await storedLists(t);
      assert.equal(lists.size, REGIONS.length * 3);
      assert.equal(lists.get('pc-eu@2026-11-10T00:00:00Z'), undefined, 'a day without matches');
      for (const [key, list] of lists) {
        const createdAt = at(key.split('@')[1]!);
        assert.equal(createdAt % DAY, 0, `${key} is a midnight`);
        assert.equal(list.windowStart, createdAt - DAY);
        assert.ok(
          createdAt >= at('2026-11-07T00:00:00Z') && createdAt <= at('2026-11-20T00:00:00Z'),
          key,
        );
      }

      const euList = lists.get('pc-eu@2026-11-20T00:00:00Z')!;
      assert.equal(euList.matches.length, 3, 'cut to SAMPLE_SIZE');
      assert.equal(new Set(euList.matches).size, 3);
      for (const id of euList.matches)
        assert.ok(eu.includes(id), 'only pc-eu matches of 19 November');
      assert.deepEqual(
        lists.get('pc-eu@2026-11-21T00:00:00Z'),
        undefined,
        'the running day has no list yet',
      );
      assert.ok(![...lists.values()].some((list) => list.matches.includes(euToday)));
      assert.ok(
        ![...lists.values()].some((list) => list.matches.includes(euEdge)),
        'midnight opens the next window',
      );
      assert.deepEqual(new Set(lists.get('pc-na@2026-11-19T00:00:00Z')!.matches), new Set(na));
      assert.deepEqual(
        lists.get('pc-na@2026-11-20T00:00:00Z')!.matches,
        [],
        'an empty list for a day without matches',
      );
      assert.deepEqual(lists.get('console-a-eu@2026-11-20T00:00:00Z')!.matches, [psn]);
      assert.deepEqual(
        lists.get('pc-eu@2026-11-07T00:00:00Z')!.matches,
        [oldIn],
        `${oldOut} is past retention`,
      );

      assert.equal(await buildSamplesJob.outputMissing(t), false);
      assert.deepEqual(
        await buildSamples(t),
        { built: 0, filled: 0, redrawn: 0, matches: 0 },
        'a re-run builds nothing',
      );
      assert.deepEqual(await storedLists(t), lists, 'and changes nothing');

      // Just after midnight the next day's lists are due, and only those are built.
      t.clock.set('2026-11-21T00:00:30Z');
      assert.equal(await buildSamplesJob.outputMissing(t), true);
      assert.equal((await buildSamples(t)).built, REGIONS.length);
      const next = await storedLists(t);
      assert.deepEqual(
        next.get('pc-eu@2026-11-21T00:00:00Z')!.matches.sort(),
        [euEdge, euToday].sort(),
      );
      assert.equal(await buildSamplesJob.outputMissing(t), false);
    } finally {
      await t.close();
    }
  });

  test(`[${database.name}] samples: an empty list is filled when matches of its day arrive later`, async () => {
    const t = await createTestApp(database);
    try {
      await ingestIn(t, 'eu', 'pc-b', 'pc-eu', at('2026-11-15T08:00:00Z'));
      await buildSamples(t);
      const before = (await storedLists(t)).get('pc-sea@2026-11-16T00:00:00Z')!;
      assert.deepEqual(before.matches, []);

      const late = await ingestIn(t, 'sea-late', 'pc-b', 'pc-sea', at('2026-11-15T22:00:00Z'));
      assert.equal(await buildSamplesJob.outputMissing(t), true, 'due at once, not a day later');
      assert.deepEqual(await buildSamples(t), { built: 0, filled: 1, redrawn: 0, matches: 1 });
      const after = (await storedLists(t)).get('pc-sea@2026-11-16T00:00:00Z')!;
      assert.deepEqual(after, { ...before, matches: [late], revision: before.revision + 1 });
      assert.equal(await buildSamplesJob.outputMissing(t), false);
    } finally {
      await t.close();
    }
  });

  test(`[${database.name}] samples: a rebuild redraws a list whose day gained matches since it was drawn, and only then`, async () => {
    const t = await createTestApp(database, { SAMPLE_SIZE: '2' });
    try {
      const first = await ingestIn(t, 'a', 'pc-b', 'pc-eu', at('2026-11-19T08:00:00Z'));
      await buildSamples(t);
      const before = (await storedLists(t)).get('pc-eu@2026-11-20T00:00:00Z')!;
      assert.deepEqual(before.matches, [first]);

      const late = [
        await ingestIn(t, 'b', 'pc-b', 'pc-eu', at('2026-11-19T09:00:00Z')),
        await ingestIn(t, 'c', 'pc-b', 'pc-eu', at('2026-11-19T10:00:00Z')),
      ];
      assert.deepEqual(await buildSamples(t), { built: 0, filled: 0, redrawn: 0, matches: 0 });
      assert.deepEqual((await storedLists(t)).get('pc-eu@2026-11-20T00:00:00Z'), before);

      const rebuilt = await buildSamples(t, { rebuild: true });
      assert.deepEqual(rebuilt, { built: 0, filled: 0, redrawn: 1, matches: 2 });
      const after = (await storedLists(t)).get('pc-eu@2026-11-20T00:00:00Z')!;
      assert.equal(after.revision, before.revision + 1);
      assert.equal(after.matches.length, 2);
      for (const id of after.matches) assert.ok([first, ...late].includes(id));
      assert.deepEqual(
        await buildSamples(t, { rebuild: true }),
        { built: 0, filled: 0, redrawn: 0, matches: 0 },
        'drawn from the whole day now: nothing to redraw',
      );
    } finally {
      await t.close();
    }
  });

  test(`[${database.name}] samples: no list predates the store's oldest match; an empty store gets the latest lists only`, async () => {
    const t = await createTestApp(database);
    try {
      assert.equal((await buildSamples(t)).built, REGIONS.length);
      assert.deepEqual(
        [...new Set([...(await storedLists(t)).keys()].map((key) => key.split('@')[1]))],
        ['2026-11-20T00:00:00Z'],
      );
      await ingestIn(t, 'eu', 'pc-b', 'pc-eu', at('2026-11-17T08:00:00Z'));
      assert.equal(await buildSamplesJob.outputMissing(t), true, 'older days became due');
      assert.equal((await buildSamples(t)).built, REGIONS.length, '18 November only');
      assert.equal((await storedLists(t)).get('pc-eu@2026-11-19T00:00:00Z'), undefined);
    } finally {
      await t.close();
    }
  });

  test(`[${database.name}] samples: with retention off, history reaches the oldest match, with lists only for days that have matches`, async () => {
    const t = await createTestApp(database, { RETENTION_DAYS: '0' });
    try {
      const old = await ingestIn(t, 'old', 'pc-b', 'pc-eu', at('2018-06-01T08:00:00Z'));
      await ingestIn(t, 'old2', 'pc-b', 'pc-na', at('2018-06-01T09:00:00Z'));
      const later = await ingestIn(t, 'later', 'pc-b', 'pc-eu', at('2019-02-03T08:00:00Z'));
      const recent = await ingestIn(t, 'recent', 'pc-b', 'pc-eu', at('2026-11-01T08:00:00Z'));
      const result = await buildSamples(t);
      assert.equal(
        result.built,
        REGIONS.length * 4,
        '2 June 2018, 4 February 2019, 2 November and 20 November 2026 — not 3,000 days',
      );
      const lists = await storedLists(t);
      assert.deepEqual(lists.get('pc-eu@2018-06-02T00:00:00Z')!.matches, [old]);
      assert.deepEqual(lists.get('pc-eu@2019-02-04T00:00:00Z')!.matches, [later]);
      assert.deepEqual(lists.get('pc-eu@2026-11-02T00:00:00Z')!.matches, [recent]);
      assert.deepEqual(lists.get('pc-eu@2026-11-20T00:00:00Z')!.matches, []);
      assert.equal(await buildSamplesJob.outputMissing(t), false);

      const between = await ingestIn(t, 'between', 'pc-b', 'pc-sea', at('2019-02-02T08:00:00Z'));
      assert.equal(await buildSamplesJob.outputMissing(t), true, 'a new day with a match');
      assert.deepEqual(await buildSamples(t), {
        built: REGIONS.length,
        filled: 0,
        redrawn: 0,
        matches: 1,
      });
      assert.deepEqual((await storedLists(t)).get('pc-sea@2019-02-03T00:00:00Z')!.matches, [
        between,
      ]);
    } finally {
      await t.close();
    }
  });

  test(`[${database.name}] samples: SAMPLES_INTERVAL_HOURS sets the job's interval and the windows' length`, async () => {
    const t = await createTestApp(database, { SAMPLES_INTERVAL_HOURS: '6' });
    try {
      assert.equal(buildSamplesJob.intervalMs(t.config), 6 * 3_600_000);
      const inside = await ingestIn(t, 'inside', 'pc-b', 'pc-eu', at('2026-11-20T06:00:00Z'));
      await ingestIn(t, 'before', 'pc-b', 'pc-eu', at('2026-11-20T05:59:59Z'));
      await buildSamples(t);
      const list = (await storedLists(t)).get('pc-eu@2026-11-20T12:00:00Z')!;
      assert.equal(list.windowStart, at('2026-11-20T06:00:00Z'));
      assert.deepEqual(list.matches, [inside]);
    } finally {
      await t.close();
    }
  });
}
