/**
 * Leaderboard pages are invalidated by the change tag a rebuild announces, like the other keyed
 * documents: a rebuild committed elsewhere (the job thread, `gamedata jobs run`, another
 * instance) is served after this instance's next feed poll — not a minute later, and not before
 * (the pages are cached bytes) — and a build nobody announced is never looked up again early.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp } from '../helpers/app.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { buildApp } from '../../src/app.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { rebuildLeaderboards } from '../../src/jobs/rebuild-leaderboards.ts';
import { createChangeFeed } from '../../src/store/change-feed.ts';
import { announceChanges } from '../../src/store/changes.ts';
import { DOCUMENT_CHANGES } from '../../src/store/document-changes.ts';
import { leaderboardTag } from '../../src/store/leaderboards.ts';
import type { Db } from '../../src/store/store.ts';

const MINUTE = 60_000;
const URL = '/shards/pc-b/leaderboards/duo';
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * What a rebuild elsewhere commits, written without this process's local announcement: the
 * build of pc-b duo under a new id, and (unless `announce` is false) its tag on the feed.
 */
async function rebuildElsewhere(db: Db, id: string, at: number, announce = true): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const build = await trx
      .selectFrom('leaderboards')
      .select('id')
      .where('platform', '=', 'pc-b')
      .where('game_mode', '=', 'duo')
      .executeTakeFirstOrThrow();
    const entries = await trx
      .selectFrom('leaderboard_entries')
      .selectAll()
      .where('leaderboard_id', '=', build.id)
      .execute();
    await trx.deleteFrom('leaderboard_entries').where('leaderboard_id', '=', build.id).execute();
    await trx.updateTable('leaderboards').set({ id }).where('id', '=', build.id).execute();
    await trx
      .insertInto('leaderboard_entries')
      .values(entries.map((entry) => ({ ...entry, leaderboard_id: id })))
      .execute();
    if (announce) {
      const tags = JSON.stringify([leaderboardTag('pc-b', 'duo')]);
      await announceChanges(trx, DOCUMENT_CHANGES, [tags], at);
    }
  });
}

for (const database of testDatabases) {
  describe(`leaderboard pages by change tags (${database.name})`, () => {
    test('a rebuild elsewhere is served after the next feed poll, and not before', async () => {
      const t = await createTestApp(database);
      const feed = createChangeFeed(t.store, { clock: t.clock, every: () => () => {} });
      let app: FastifyInstance | null = null;
      try {
        await ingestMatch(
          t,
          makeMatchInput({
            seed: 'g1',
            overrides: { createdAt: iso(t.clock.now() - 40 * MINUTE) },
          }),
        );
        await rebuildLeaderboards(t);
        app = await buildApp({ ...t, changes: feed, logger: false });
        const idOf = async (): Promise<string> => {
          const response = await app!.inject({ url: URL, headers: t.auth });
          assert.equal(response.statusCode, 200, response.body);
          return response.json().data.id;
        };
        await feed.poll();
        const first = await idOf();

        const second = '00000000-0000-4000-8000-000000000002';
        await rebuildElsewhere(t.store.db, second, t.clock.now());
        assert.equal(await idOf(), first, 'cached bytes until the feed is read');
        await feed.poll();
        assert.equal(await idOf(), second, 'at the first request after the poll');

        // Past the minute the pages used to be trusted for: no lookup without an announcement.
        t.clock.advance(5 * MINUTE);
        const third = '00000000-0000-4000-8000-000000000003';
        await rebuildElsewhere(t.store.db, third, t.clock.now(), false);
        assert.equal(await idOf(), second, 'the build is read once per announced change');
        // A page of that build not rendered yet still finds its build gone and reads the new one.
        const other = await app.inject({ url: `${URL}?page[number]=1`, headers: t.auth });
        assert.equal(other.json().data.id, third);
      } finally {
        await app?.close();
        await t.close();
      }
    });
  });
}
