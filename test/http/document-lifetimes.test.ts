/**
 * A cached rendering ends at most a minute after it was made, and renderings made at the same
 * moment — as after a purge, when the requests that follow render every changed document again —
 * do not all end at the same moment: each URL keeps its rendering from half a minute to a minute.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { buildApp } from '../../src/app.ts';
import { createChangeFeed } from '../../src/store/change-feed.ts';

const SECOND = 1000;

for (const database of testDatabases) {
  test(`[${database.name}] renderings made together end between 30 and 60 s later, not all at once`, async () => {
    const t = await createTestApp(database);
    // A change feed that reads only when told: the ingest's announcement is delivered before
    // the renderings are made, so they are cached.
    const feed = createChangeFeed(t.store, { clock: t.clock, every: () => () => {} });
    const app = await buildApp({ ...t, changes: feed, logger: false });
    await feed.start();
    try {
      const createdAt = new Date(t.clock.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      await ingestMatch(
        t,
        makeMatchInput({ seed: 'lifetimes', rosters: 4, overrides: { createdAt } }),
      );
      await feed.poll();
      const ids = Array.from({ length: 8 }, (_, i) => accountId(i));
      const name = async (id: string): Promise<string> => {
        const answer = await app.inject({ url: `/shards/pc-b/players/${id}`, headers: t.auth });
        assert.equal(answer.statusCode, 200, answer.body);
        return (answer.json() as { data: { attributes: { name: string } } }).data.attributes.name;
      };
      const names = async (): Promise<string[]> => Promise.all(ids.map(name));
      const start = t.clock.now();
      const rendered = await names();
      // Behind the service's back: seen only where a rendering has ended and is made again.
      await t.store.db.updateTable('players').set({ name: 'Renamed' }).execute();
      const renamed = (shown: string[]) => shown.filter((n) => n === 'Renamed').length;

      t.clock.set(start + 30 * SECOND - 1);
      assert.deepEqual(await names(), rendered, 'every rendering lasts at least 30 s');
      t.clock.set(start + 45 * SECOND);
      const midway = renamed(await names());
      assert.ok(midway > 0 && midway < ids.length, `${midway} of ${ids.length} ended after 45 s`);
      t.clock.set(start + 60 * SECOND);
      assert.equal(renamed(await names()), ids.length, 'every rendering ends within 60 s');
    } finally {
      await app.close();
      await t.close();
    }
  });
}
