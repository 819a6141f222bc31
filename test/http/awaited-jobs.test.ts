import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { rebuildLeaderboards } from '../../src/jobs/rebuild-leaderboards.ts';
import { AWAITED_RETRY_AFTER_SECONDS, createJobProgress } from '../../src/jobs/job-progress.ts';

const MINUTE = 60_000;
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

for (const database of testDatabases) {
  test(`[${database.name}] a start waiting for its first builds answers 503 for those resources only, then the builds`, async () => {
    const progress = createJobProgress();
    progress.expect('leaderboards');
    progress.expect('samples');
    const t = await createTestApp(database, {}, { jobProgress: progress });
    try {
      await ingestMatch(
        t,
        makeMatchInput({
          seed: 'awaited',
          rosters: 4,
          playersPerRoster: 2,
          player: (seat) => ({ playerId: accountId(`aw-${seat.index}`), name: `Aw${seat.index}` }),
          overrides: { createdAt: iso(t.clock.now() - 40 * MINUTE) },
        }),
      );
      const get = (url: string) => t.app.inject({ url, headers: t.auth });
      const board = '/shards/pc-b/leaderboards/duo';

      for (const url of [
        board,
        '/shards/pc-eu/leaderboards/division.bro.official.pc-2018-45/duo',
        '/shards/pc-eu/samples',
      ]) {
        const waiting = await get(url);
        assert.equal(waiting.statusCode, 503, `${url}: ${waiting.body}`);
        assert.equal(waiting.headers['retry-after'], String(AWAITED_RETRY_AFTER_SECONDS));
        const body = waiting.json() as { errors: Array<{ title: string; detail: string }> };
        assert.equal(body.errors[0]?.title, 'Service Unavailable');
      }
      // The rest of the service answers meanwhile.
      const player = await get(`/shards/pc-b/players/${accountId('aw-0')}`);
      assert.equal(player.statusCode, 200);

      await rebuildLeaderboards(t);
      progress.ended('leaderboards');
      const built = await get(board);
      assert.equal(built.statusCode, 200, built.body);
      const page = built.json() as { included: unknown[] };
      assert.equal(page.included.length, 8, 'the build, not the empty page seen before it');
      assert.equal((await get('/shards/pc-eu/samples')).statusCode, 503, 'samples still awaited');

      // A run that ended without output (failed, or another instance holds the job): as before.
      progress.ended('samples');
      assert.equal((await get('/shards/pc-eu/samples')).statusCode, 404);
    } finally {
      await t.close();
    }
  });
}
