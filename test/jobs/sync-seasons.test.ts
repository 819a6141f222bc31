import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { loadConfig } from '../../src/config.ts';
import { fixedClock } from '../../src/clock.ts';
import { directoryBlobStore } from '../../src/blobs/directory-blob-store.ts';
import { syncSeasonsJob } from '../../src/jobs/sync-seasons.ts';
import { listSeasons, syncSeasons } from '../../src/store/seasons.ts';
import { seasonAt } from '../../src/domain/seasons.ts';

for (const database of testDatabases) {
  test(`[${database.name}] the seasons job lists a new season once time reaches it`, async () => {
    const store = await database.open();
    try {
      const clock = fixedClock('2026-11-20T00:00:00Z');
      const deps = {
        store,
        clock,
        config: loadConfig({}),
        blobs: directoryBlobStore('/nonexistent'),
      };
      await syncSeasons(store, clock.now());
      assert.equal(await syncSeasonsJob.outputMissing(deps), false);
      const before = await listSeasons(store.db, 'pc-b');

      clock.advance(200 * 86_400_000);
      assert.equal(await syncSeasonsJob.outputMissing(deps), true);
      assert.match(await syncSeasonsJob.run(deps), /^[1-9]\d* seasons added$/);
      const after = await listSeasons(store.db, 'pc-b');
      assert.ok(after.length > before.length);
      const current = seasonAt(after, clock.now())!;
      assert.notEqual(current.id, after.at(-1)!.id, 'the upcoming season is listed ahead of time');
      assert.ok(!before.some((season) => season.id === current.id), 'the current season is new');
      assert.equal(await syncSeasonsJob.outputMissing(deps), false);
    } finally {
      await store.close();
    }
  });
}
