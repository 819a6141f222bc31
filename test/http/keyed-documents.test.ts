/**
 * The keyed documents served from cached bytes show every committed write on the same instance
 * at once: after an ingest (including a name nobody had before), a clan or player status, a
 * recorded document, the samples job and a retention purge. A write behind the service's back
 * (no announcement) is not seen, which shows the documents really are served from the cache.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import { KEYED_HERO, currentPcSeason, ingestKeyedFixture } from '../helpers/keyed-urls.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { ingestEntity } from '../../src/ingest/ingest-entity.ts';
import { buildSamples } from '../../src/jobs/build-samples.ts';
import { purgeExpired } from '../../src/jobs/purge-expired.ts';
import { buildApp } from '../../src/app.ts';
import { createChangeFeed, type ChangeFeed } from '../../src/store/change-feed.ts';
import { documentGenerations } from '../../src/http/document-generations.ts';
import {
  announceDocumentChanges,
  listedFromTag,
  playerTag,
} from '../../src/store/document-changes.ts';
import type { FastifyInstance } from 'fastify';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NEWCOMER = accountId('keyed-newcomer');
const CLAN = 'clan.0123456789abcdef0123456789abcdef';

for (const database of testDatabases) {
  describe(`keyed documents from cached bytes (${database.name})`, () => {
    let t: TestApp;
    /** An app whose change feed reads only when told (`feed.poll()`): its own writes show at once. */
    let app: FastifyInstance;
    let feed: ChangeFeed;
    let season: string;
    const deps = () => ({ store: t.store, blobs: t.blobs, config: t.config, clock: t.clock });
    const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    /** The body, asked twice so the second answer comes from the cache when it can. */
    const body = async (url: string): Promise<string> => {
      const first = await app.inject({ url, headers: t.auth });
      assert.equal(first.statusCode, 200, `${url}: ${first.body}`);
      const second = await app.inject({ url, headers: { ...t.auth, 'accept-encoding': 'gzip' } });
      assert.equal(second.headers['content-encoding'], 'gzip');
      return first.body;
    };

    before(async () => {
      t = await createTestApp(database);
      await ingestKeyedFixture(t);
      season = await currentPcSeason(t);
      feed = createChangeFeed(t.store, { clock: t.clock, every: () => () => {} });
      app = await buildApp({ ...t, changes: feed, logger: false });
      await feed.start();
    });
    after(async () => {
      await app.close();
      await t.close();
    });

    test('a change made behind the service’s back is not seen: the documents are cached', async () => {
      const url = `/shards/pc-b/players/${accountId(3)}`;
      await feed.poll();
      const cached = await body(url);
      await t.store.db
        .updateTable('players')
        .set({ name: 'Sneaky' })
        .where('account_id', '=', accountId(3))
        .execute();
      assert.equal(await body(url), cached);
    });

    test('generations stopped (their app closed) hear no more writers nor feed', async () => {
      const generations = documentGenerations(t.clock, feed);
      const tag = playerTag('steam', NEWCOMER);
      await announceDocumentChanges(t.store.db, [tag], t.clock.now());
      await feed.poll();
      const heard = generations.current();
      assert.ok(heard > 0, 'a writer and the feed are heard while listening');
      generations.stop();
      await announceDocumentChanges(t.store.db, [tag], t.clock.now());
      await feed.poll();
      assert.equal(generations.current(), heard);
    });

    test('player, names, season, lifetime, batch and mastery documents change with an ingest', async () => {
      const urls = [
        `/shards/pc-b/players/${KEYED_HERO}`,
        `/shards/pc-b/players?filter[playerNames]=Player0,Newcomer`,
        `/shards/pc-b/players/${KEYED_HERO}/seasons/${season}`,
        `/shards/pc-b/players/${KEYED_HERO}/seasons/lifetime`,
        `/shards/pc-b/seasons/${season}/gameMode/duo/players?filter[playerIds]=${KEYED_HERO},${NEWCOMER}`,
        `/shards/pc-b/players/${KEYED_HERO}/survival_mastery`,
        `/shards/pc-b/players?filter[playerIds]=${KEYED_HERO},${NEWCOMER}`,
      ];
      const before = await Promise.all(urls.map(body));
      assert.equal(JSON.parse(before[1]!).data.length, 1, 'Newcomer has no name yet');

      const match = makeMatchInput({
        seed: 'keyed-new',
        player: ({ index }) => (index === 1 ? { playerId: NEWCOMER, name: 'Newcomer' } : {}),
        overrides: { createdAt: iso(t.clock.now() - HOUR / 2) },
      });
      await ingestMatch(deps(), match);

      const after = await Promise.all(urls.map(body));
      // Once the feed delivers the committed change, the new renderings are served from the cache.
      await feed.poll();
      assert.deepEqual(await Promise.all(urls.map(body)), after);
      for (const [index, url] of urls.entries()) {
        assert.notEqual(after[index], before[index], `${url} still shows the old document`);
      }
      for (const index of [0, 1, 2, 3, 4]) assert.match(after[index]!, new RegExp(match.id));
      assert.equal(JSON.parse(after[1]!).data.length, 2, 'the new name is found');
      assert.equal(JSON.parse(after[4]!).data.length, 2, 'the new id is found');
      assert.equal(JSON.parse(after[6]!).data.length, 2, 'the new player is found by id');
    });

    test('ranked stats change with a ranked ingest', async () => {
      const url = `/shards/pc-b/players/${KEYED_HERO}/seasons/${season}/ranked`;
      const before = await body(url);
      await ingestMatch(
        deps(),
        makeMatchInput({
          seed: 'keyed-ranked',
          rosters: 16,
          playersPerRoster: 4,
          overrides: {
            createdAt: iso(t.clock.now() - HOUR / 4),
            matchType: 'competitive',
            gameMode: 'squad',
          },
        }),
      );
      assert.notEqual(await body(url), before);
    });

    test('a clan and a player status change the clan and player documents', async () => {
      const clanUrl = `/shards/pc-b/clans/${CLAN}`;
      const playerUrl = `/shards/pc-b/players/${KEYED_HERO}`;
      const clan = {
        kind: 'clan',
        platform: 'pc-b',
        id: CLAN,
        name: 'Keyed',
        tag: 'KEY',
        level: 1,
      };
      await ingestEntity(deps(), clan);
      const clanBefore = await body(clanUrl);
      const playerBefore = await body(playerUrl);
      await ingestEntity(deps(), { ...clan, level: 2, members: [KEYED_HERO] });
      assert.notEqual(await body(clanUrl), clanBefore);
      assert.match(await body(playerUrl), new RegExp(CLAN));
      assert.doesNotMatch(playerBefore, new RegExp(CLAN));
    });

    test('a match read while a purge of its hour is being written is answered but not kept', async () => {
      const created = t.clock.now() - HOUR;
      const match = makeMatchInput({
        seed: 'keyed-pending-purge',
        telemetry: true,
        overrides: { createdAt: iso(created) },
      });
      await ingestMatch(deps(), match);
      await feed.poll();
      const deleteBehindTheBack = async (id: string): Promise<void> => {
        const db = t.store.db;
        for (const table of [
          'participants',
          'rosters',
          'match_documents',
          'player_matches',
        ] as const) {
          await db.deleteFrom(table).where('match_id', '=', id).execute();
        }
        await db.deleteFrom('matches').where('id', '=', id).execute();
      };
      const url = `/shards/pc-b/matches/${match.id}`;
      const status = async (): Promise<number> =>
        (await app.inject({ url, headers: t.auth })).statusCode;
      // Heard here (a purge of that hour announces it before its commit), the feed not polled
      // yet: on PostgreSQL a read on another connection may still see the rows the purge deletes.
      await announceDocumentChanges(t.store.db, [listedFromTag(created)], t.clock.now());
      assert.equal(await status(), 200);
      assert.equal(await status(), 200);
      // Gone behind the service's back: read again, so not answered from a cache.
      await deleteBehindTheBack(match.id);
      assert.equal(await status(), 404, 'not kept while its hour was pending');
      // Delivered by the feed: that hour's matches are kept again.
      await feed.poll();
      const next = makeMatchInput({
        seed: 'keyed-pending-purge-2',
        telemetry: true,
        overrides: { createdAt: iso(created) },
      });
      await ingestMatch(deps(), next);
      await feed.poll();
      const nextUrl = `/shards/pc-b/matches/${next.id}`;
      assert.equal((await app.inject({ url: nextUrl, headers: t.auth })).statusCode, 200);
      await deleteBehindTheBack(next.id);
      const cached = await app.inject({ url: nextUrl, headers: t.auth });
      assert.equal(cached.statusCode, 200, 'answered from the match cache');
    });
    test('samples change when the job fills a list, and lists lose matches with a purge', async () => {
      const day = t.clock.now() - 3 * DAY;
      const url = `/shards/pc-sea/samples?filter[createdAt-start]=${iso(day)}`;
      // Lists are drawn for the days with matches: an EU match makes an empty list for SEA.
      const old = { createdAt: iso(day - HOUR) };
      await ingestMatch(deps(), makeMatchInput({ seed: 'keyed-old', overrides: old }));
      await buildSamples(t);
      const empty = JSON.parse(await body(url));
      assert.deepEqual(empty.data.relationships.matches.data, []);
      const late = makeMatchInput({
        seed: 'keyed-sea',
        overrides: { createdAt: iso(day), regionShard: 'pc-sea' },
      });
      await ingestMatch(deps(), late);
      assert.equal(await body(url), JSON.stringify(empty), 'unchanged until the job runs');
      await buildSamples(t);
      assert.match(await body(url), new RegExp(late.id));

      const player = `/shards/pc-b/players/${KEYED_HERO}`;
      const listed = JSON.parse(await body(player)).data.relationships.matches.data.length;
      // The oldest fixture match is two hours old: a purge 14 days on takes matches away.
      t.clock.set(t.clock.now() + t.config.retentionDays * DAY - HOUR);
      await purgeExpired(t);
      const left = JSON.parse(await body(player)).data.relationships.matches.data.length;
      assert.ok(left < listed, `still ${left} of ${listed} matches after the purge`);
    });
  });
}
