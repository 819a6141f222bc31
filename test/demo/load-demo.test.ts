import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseDemoRun, demoRunToServe, loadDemo } from '../../src/demo/load-demo.ts';
import { JOBS } from '../../src/jobs/index.ts';
import { isJobDue, runJobOnce, startScheduler } from '../../src/jobs/scheduler.ts';
import { listMatchIdsInWindow } from '../../src/store/samples.ts';
import { listDemoRuns } from '../../src/store/demo-runs.ts';
import type { Store } from '../../src/store/store.ts';
import { withDemoDeps } from '../helpers/demo-deps.ts';
import { testDatabases } from '../helpers/stores.ts';

const NOW = '2026-11-20T12:00:00Z';

const count = async (store: Store, table: 'matches' | 'leaderboard_entries'): Promise<number> =>
  Number(
    (
      await store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

for (const database of testDatabases) {
  test(`[${database.name}] an interrupted demo load is resumed with the same run, and completing it rebuilds what jobs derived from part of it`, async () => {
    const store = await database.open();
    await withDemoDeps(store, NOW, async (deps) => {
      const { clock } = deps;
      assert.deepEqual(await demoRunToServe(deps, { seed: 5, storeIsEmpty: true }), {
        seed: 5,
        scale: 1,
        now: Date.parse(NOW),
        recorded: false,
      });
      const run = await chooseDemoRun(deps, { seed: 5, scale: 0.02, now: null });
      assert.equal(run.recorded, false);

      // A load stopped part-way (as a stop signal does), with jobs running on the partial data.
      const stop = new AbortController();
      const partial = loadDemo(deps, run, { progress: false, signal: stop.signal });
      while ((await count(store, 'matches')) < 8) await new Promise((r) => setTimeout(r, 5));
      stop.abort();
      assert.equal((await partial).interrupted, true);
      for (const job of JOBS) await runJobOnce(deps, job, 'during-the-load');
      const partialEntries = await count(store, 'leaderboard_entries');

      // Later, with the clock moved on: the store remembers the run, so the same 14 days load.
      clock.advance(3_600_000);
      const resumed = await demoRunToServe(deps, { seed: 9, storeIsEmpty: false });
      assert.deepEqual(resumed, { ...run, recorded: true }, 'serve resumes it, whatever DEMO_SEED');
      assert.deepEqual(await chooseDemoRun(deps, { seed: 5, scale: 0.02, now: null }), resumed);
      for (const job of JOBS.filter((j) => j.derivedFromMatches)) {
        assert.equal(
          await isJobDue(deps, job),
          false,
          `${job.name} looks done before the load ends`,
        );
      }
      const completed = await loadDemo(deps, resumed!, { progress: false });
      assert.equal(completed.interrupted, false);
      assert.ok(completed.duplicates >= 8 && completed.ingested > 0);
      assert.notEqual((await listDemoRuns(store.db))[0]!.finishedAt, null);
      assert.equal(await demoRunToServe(deps, { seed: 5, storeIsEmpty: false }), null);

      for (const job of JOBS.filter((j) => j.derivedFromMatches)) {
        assert.equal(await isJobDue(deps, job), true, `${job.name} is due after the load`);
      }
      const log: string[] = [];
      const scheduler = startScheduler(deps, JOBS, {
        owner: 'test',
        tickMs: 60_000,
        log: { info: (m) => log.push(m), error: (m) => log.push(`ERROR ${m}`) },
        autostart: false,
      });
      await scheduler.tick();
      await scheduler.stop();
      assert.ok(!log.some((line) => line.startsWith('ERROR')), log.join('\n'));
      assert.ok(log.some((line) => line.startsWith('job samples')));
      assert.ok((await count(store, 'leaderboard_entries')) > partialEntries);
      const lists = await store.db.selectFrom('sample_lists').selectAll().execute();
      for (const list of lists) {
        const window = await listMatchIdsInWindow(
          store.db,
          list.region,
          Number(list.window_start),
          Number(list.created_at),
        );
        assert.equal(Number(list.drawn_from), window.length, `${list.region} list drawn from all`);
      }
      for (const job of JOBS.filter((j) => j.derivedFromMatches)) {
        assert.equal(await isJobDue(deps, job), false, `${job.name} is done`);
      }

      // Loading the finished run again adds nothing and asks for no rebuild.
      const again = await loadDemo(
        deps,
        await chooseDemoRun(deps, { seed: 5, scale: 0.02, now: null }),
        {
          progress: false,
        },
      );
      assert.equal(again.ingested, 0);
      for (const job of JOBS.filter((j) => j.derivedFromMatches)) {
        assert.equal(await isJobDue(deps, job), false);
      }
    });
  });
}
