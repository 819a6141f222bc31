import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp } from '../helpers/app.ts';
import { makeMatchInput, accountId } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { purgeExpired } from '../../src/jobs/purge-expired.ts';
import { buildSamples } from '../../src/jobs/build-samples.ts';
import { buildApp } from '../../src/app.ts';
import { createChangeFeed } from '../../src/store/change-feed.ts';
import {
  DOCUMENT_KINDS,
  listedFromTag,
  sampleListTag,
  watchLocalDocumentChanges,
} from '../../src/store/document-changes.ts';
import { fixedClock } from '../../src/clock.ts';

const DAY = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * An app on `t`'s store whose change feed reads only when told, so what it has heard is known
 * at each step, with the tags this process announces from now on.
 */
async function polledApp(t: TestApp) {
  const feed = createChangeFeed(t.store, { clock: t.clock, every: () => () => {} });
  const app = await buildApp({ ...t, changes: feed, logger: false });
  await feed.start();
  const announced: string[] = [];
  const unwatch = watchLocalDocumentChanges((tags) => announced.push(...tags));
  return {
    feed,
    app,
    announced,
    /** The ids of the matches the document at `url` lists (asserting it is answered 200). */
    async listedIn(url: string): Promise<string[]> {
      const answer = await app.inject({ url, headers: t.auth });
      assert.equal(answer.statusCode, 200, answer.body);
      return answer.json().data.relationships.matches.data.map((m: { id: string }) => m.id);
    },
    async close() {
      unwatch();
      await app.close();
    },
  };
}

/** The sample of pc-eu covering the time a match was created. */
const sampleOf = (match: { createdAt: string }): string =>
  `/shards/pc-eu/samples?filter[createdAt-start]=${match.createdAt}`;

/** The id of the sample list a match is listed in. */
const sampleListOf = async (t: TestApp, matchId: string): Promise<string> =>
  (
    await t.store.db
      .selectFrom('sample_matches')
      .select('sample_id')
      .where('match_id', '=', matchId)
      .executeTakeFirstOrThrow()
  ).sample_id;

for (const database of testDatabases) {
  test(`[${database.name}] purge deletes what left the window and keeps what is just inside`, async () => {
    const t = await createTestApp(database);
    try {
      const start = t.clock.now();
      // Both created now; the clock then moves so one is a minute inside the window and one a minute outside.
      const outside = makeMatchInput({
        seed: 'old',
        telemetry: true,
        overrides: { createdAt: iso(start - 2 * 60_000), tournamentId: 'eu-old1' },
      });
      const inside = makeMatchInput({
        seed: 'new',
        telemetry: true,
        overrides: { createdAt: iso(start) },
      });
      await ingestMatch(t, outside);
      await ingestMatch(t, inside);
      const stats = async () =>
        (
          await t.store.db
            .selectFrom('season_stats')
            .select(['kills'])
            .where('account_id', '=', accountId(0))
            .execute()
        ).length;
      const statRowsBefore = await stats();
      const outsideKey = (
        await t.store.db
          .selectFrom('matches')
          .select('telemetry_key')
          .where('id', '=', outside.id)
          .executeTakeFirstOrThrow()
      ).telemetry_key!;
      assert.ok(await t.blobs.get(outsideKey));

      t.clock.set(start + 14 * DAY - 60_000);
      assert.deepEqual(await purgeExpired(t), { matches: 1, sampleLists: 0, tournaments: 1 });

      const remaining = await t.store.db.selectFrom('matches').select('id').execute();
      assert.deepEqual(
        remaining.map((r) => r.id),
        [inside.id],
      );
      for (const table of ['participants', 'rosters', 'match_documents'] as const) {
        const rows = await t.store.db
          .selectFrom(table)
          .select('match_id')
          .where('match_id', '=', outside.id)
          .execute();
        assert.equal(rows.length, 0, `${table} rows of the expired match are gone`);
      }
      const listed = await t.store.db
        .selectFrom('player_matches')
        .select('match_id')
        .where('match_id', '=', outside.id)
        .execute();
      assert.equal(listed.length, 0);
      assert.equal(await t.blobs.get(outsideKey), null, 'its telemetry file is gone');
      assert.equal(await stats(), statRowsBefore, 'season aggregates stay');

      const player = await t.app.inject({
        url: `/shards/pc-b/players/${accountId(0)}`,
        headers: t.auth,
      });
      assert.deepEqual(
        player.json().data.relationships.matches.data.map((m: { id: string }) => m.id),
        [inside.id],
      );
      assert.equal(
        (await t.app.inject({ url: `/shards/pc-b/matches/${outside.id}` })).statusCode,
        404,
      );
      assert.equal(
        (await t.app.inject({ url: `/shards/pc-b/matches/${inside.id}` })).statusCode,
        200,
      );
      assert.equal(
        (await t.app.inject({ url: '/tournaments/eu-old1', headers: t.auth })).statusCode,
        404,
      );
    } finally {
      await t.close();
    }
  });

  test(`[${database.name}] a purge makes readers render again the documents that still list its matches, and only those`, async () => {
    const t = await createTestApp(database);
    const watched = await polledApp(t);
    const { feed, app, announced, listedIn } = watched;
    try {
      const start = t.clock.now();
      const old = makeMatchInput({
        seed: 'purged',
        telemetry: true,
        overrides: { createdAt: iso(start - 2 * DAY) },
      });
      // Two minutes younger, so the purge keeps it: its tournament and sample stay, changed.
      const partner = makeMatchInput({
        seed: 'partner',
        player: (seat) => ({ playerId: accountId(20 + seat.index), name: `Partner${seat.index}` }),
        overrides: { createdAt: iso(start - 2 * DAY + 120_000) },
      });
      // Players 10–13 played only a match that stays.
      const kept = makeMatchInput({
        seed: 'kept',
        player: (seat) => ({ playerId: accountId(10 + seat.index), name: `Kept${seat.index}` }),
        overrides: { createdAt: iso(start), tournamentId: 'eu-kept' },
      });
      await ingestMatch(t, old);
      await ingestMatch(t, partner);
      await ingestMatch(t, kept);
      await feed.poll();
      const get = async (i: number) => {
        const url = `/shards/pc-b/players/${accountId(i)}`;
        const answer = await app.inject({ url, headers: t.auth });
        assert.equal(answer.statusCode, 200);
        return answer.json().data;
      };
      // Readers here are a day behind the purge (another instance's clock, or a shorter window
      // there): to them the old match is still listed.
      t.clock.set(start + 11 * DAY);
      await buildSamples(t);
      await feed.poll();
      assert.equal((await get(0)).relationships.matches.data.length, 1);
      assert.deepEqual(new Set(await listedIn(sampleOf(old))), new Set([old.id, partner.id]));
      assert.deepEqual(await listedIn(sampleOf(kept)), [kept.id]);
      const keptTournament = async (): Promise<string> =>
        (await app.inject({ url: '/tournaments/eu-kept', headers: t.auth })).body;
      const keptTournamentBefore = await keptTournament();
      // Its document is final (telemetry attached), so it is answered from the match cache.
      const matchUrl = `/shards/pc-b/matches/${old.id}`;
      const matchStatus = async (): Promise<number> =>
        (await app.inject({ url: matchUrl, headers: t.auth })).statusCode;
      assert.equal(await matchStatus(), 200);
      assert.equal(await matchStatus(), 200);
      assert.equal((await get(10)).attributes.name, 'Kept0');
      // Behind the service's back (nothing announced): seen only where the document is rendered again.
      await t.store.db
        .updateTable('players')
        .set({ name: 'Renamed' })
        .where('account_id', 'in', [accountId(0), accountId(10)])
        .execute();
      await t.store.db.updateTable('tournaments').set({ created_at: start }).execute();
      const keptList = await sampleListOf(t, kept.id);
      await t.store.db.deleteFrom('sample_matches').where('sample_id', '=', keptList).execute();
      await t.store.db
        .updateTable('sample_lists')
        .set((eb) => ({ revision: eb('revision', '+', 1) }))
        .where('id', '=', keptList)
        .execute();

      const oldList = await sampleListOf(t, old.id);
      announced.length = 0;
      const ahead = { ...t, clock: fixedClock(start + 12 * DAY + 60_000) };
      assert.equal((await purgeExpired(ahead)).matches, 1);
      assert.deepEqual(
        new Set(announced),
        new Set([listedFromTag(Date.parse(old.createdAt)), sampleListTag(oldList)]),
      );
      const purgedPlayer = await get(0);
      assert.deepEqual(purgedPlayer.relationships.matches.data, []);
      assert.equal(purgedPlayer.attributes.name, 'Renamed', 'rendered again');
      assert.equal((await get(10)).attributes.name, 'Kept0', 'still the cached rendering');
      assert.equal(await matchStatus(), 404, 'the purged match leaves the match cache too');
      // The sample that listed it is rendered again; the others, and tournaments, stay cached.
      assert.deepEqual(await listedIn(sampleOf(old)), [partner.id]);
      assert.deepEqual(await listedIn(sampleOf(kept)), [kept.id], 'still the cached sample');
      assert.equal(await keptTournament(), keptTournamentBefore, 'still the cached tournament');

      announced.length = 0;
      assert.deepEqual(await purgeExpired(ahead), { matches: 0, sampleLists: 0, tournaments: 0 });
      assert.deepEqual(announced, [], 'a purge that deletes nothing changes no document');
    } finally {
      await watched.close();
      await t.close();
    }
  });

  test(`[${database.name}] an expired sample list makes readers render again only the samples that named it`, async () => {
    const t = await createTestApp(database);
    const watched = await polledApp(t);
    const { feed, app, announced, listedIn } = watched;
    try {
      const start = t.clock.now();
      const old = makeMatchInput({
        seed: 'old-day',
        overrides: { createdAt: iso(start - 10 * DAY) },
      });
      const recent = makeMatchInput({
        seed: 'recent-day',
        player: (seat) => ({ playerId: accountId(30 + seat.index), name: `Recent${seat.index}` }),
        overrides: { createdAt: iso(start - DAY) },
      });
      await ingestMatch(t, old);
      await ingestMatch(t, recent);
      await buildSamples(t);
      await feed.poll();
      const answer = (url: string) => app.inject({ url, headers: t.auth });
      assert.deepEqual(await listedIn(sampleOf(old)), [old.id]);
      assert.deepEqual(await listedIn(sampleOf(recent)), [recent.id]);
      const latest = (await answer('/shards/pc-eu/samples')).body;
      const oldList = await sampleListOf(t, old.id);
      // Behind the service's back (nothing announced): seen only where a sample is rendered again.
      const recentList = await sampleListOf(t, recent.id);
      await t.store.db.deleteFrom('sample_matches').where('sample_id', '=', recentList).execute();

      // A day's list is created at the end of its day: nine days on, the old day has left the
      // window, and the recent day has not.
      announced.length = 0;
      t.clock.set(start + 5 * DAY + 3_600_000);
      const purged = await purgeExpired(t);
      assert.equal(purged.matches, 1);
      assert.ok(purged.sampleLists >= 1, `${purged.sampleLists} lists deleted`);
      const remaining = new Set(
        (await t.store.db.selectFrom('sample_lists').select('id').execute()).map((row) => row.id),
      );
      assert.ok(!remaining.has(oldList));
      assert.ok(announced.includes(sampleListTag(oldList)));
      assert.ok(!announced.includes(DOCUMENT_KINDS.samples), 'no sample is dropped for its kind');
      const sampleTags = announced.filter((tag) => tag.startsWith('sample\u0000'));
      assert.equal(
        sampleTags.length,
        purged.sampleLists + 1,
        'the old list, twice, and the lists deleted',
      );
      for (const id of remaining) assert.ok(!announced.includes(sampleListTag(id)), `${id} kept`);

      // Its day is outside the window now: a time filter the API refuses.
      assert.equal((await answer(sampleOf(old))).statusCode, 400);
      assert.deepEqual(await listedIn(sampleOf(recent)), [recent.id], 'still the cached sample');
      assert.equal((await answer('/shards/pc-eu/samples')).body, latest, 'still the cached latest');
    } finally {
      await watched.close();
      await t.close();
    }
  });

  test(`[${database.name}] a listed match leaves a cached document when it leaves the window, and a purge on time renders nothing again`, async () => {
    const t = await createTestApp(database);
    try {
      const start = t.clock.now();
      const old = makeMatchInput({
        seed: 'leaving',
        overrides: { createdAt: iso(start - 5 * DAY) },
      });
      const later = makeMatchInput({ seed: 'staying', overrides: { createdAt: iso(start) } });
      await ingestMatch(t, old);
      await ingestMatch(t, later);
      const leavesAt = start - 5 * DAY + t.config.retentionDays * DAY;
      const player = `/shards/pc-b/players/${accountId(0)}`;
      const season = `/shards/steam/players/${accountId(0)}/seasons/lifetime`;
      const matchesOf = async (url: string): Promise<string[]> => {
        const answer = await t.app.inject({ url, headers: t.auth });
        assert.equal(answer.statusCode, 200, answer.body);
        const relationships = answer.json().data.relationships as Record<
          string,
          { data: { id: string }[] }
        >;
        return Object.values(relationships).flatMap((r) =>
          Array.isArray(r.data) ? r.data.map((m) => m.id) : [],
        );
      };
      const nameOf = async (): Promise<string> =>
        (await t.app.inject({ url: player, headers: t.auth })).json().data.attributes.name;

      // Rendered ten seconds before the old match leaves: well within a rendering's 30 s at least.
      t.clock.set(leavesAt - 10_000);
      assert.ok((await matchesOf(player)).includes(old.id));
      assert.ok((await matchesOf(season)).includes(old.id));
      await t.store.db
        .updateTable('players')
        .set({ name: 'Renamed' })
        .where('account_id', '=', accountId(0))
        .execute();
      // Listed while its age is at most the window (as a purge keeps it), so up to `leavesAt`.
      t.clock.set(leavesAt);
      assert.equal(await nameOf(), 'Player0', 'cached until the match leaves');
      t.clock.set(leavesAt + 1);
      assert.deepEqual(await matchesOf(player), [later.id]);
      assert.ok(!(await matchesOf(season)).includes(old.id));
      assert.equal(await nameOf(), 'Renamed', 'rendered again as the match left');

      // The purge deletes a match no document lists any more: every rendering stays cached.
      await t.store.db
        .updateTable('players')
        .set({ name: 'Renamed twice' })
        .where('account_id', '=', accountId(0))
        .execute();
      t.clock.set(leavesAt + 1_000);
      assert.equal((await purgeExpired(t)).matches, 1);
      assert.equal(await nameOf(), 'Renamed', 'not rendered again by the purge');
      assert.deepEqual(await matchesOf(player), [later.id]);
    } finally {
      await t.close();
    }
  });

  test(`[${database.name}] retention 0 keeps everything`, async () => {
    const t = await createTestApp(database, { RETENTION_DAYS: '0' });
    try {
      await ingestMatch(t, makeMatchInput({ overrides: { createdAt: iso(t.clock.now()) } }));
      t.clock.advance(400 * DAY);
      assert.deepEqual(await purgeExpired(t), { matches: 0, sampleLists: 0, tournaments: 0 });
    } finally {
      await t.close();
    }
  });
}
