import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { loadConfig } from '../../src/config.ts';
import { fixedClock } from '../../src/clock.ts';
import { directoryBlobStore } from '../../src/blobs/directory-blob-store.ts';
import { startScheduler, runJobOnce, type Job, type JobDeps } from '../../src/jobs/scheduler.ts';
import { createJobProgress } from '../../src/jobs/job-progress.ts';

const quiet = { info: () => {}, error: () => {} };

function countingJob(
  runs: string[],
  options: { block?: Promise<void>; missing?: () => boolean } = {},
): Job {
  return {
    name: 'counting',
    intervalMs: () => 60_000,
    outputMissing: async () => options.missing?.() ?? false,
    async run() {
      runs.push('run');
      await options.block;
      return 'done';
    },
  };
}

for (const database of testDatabases) {
  test(`[${database.name}] two schedulers on one database: only one runs a job at a time`, async () => {
    const store = await database.open();
    try {
      const clock = fixedClock('2026-11-20T00:00:00Z');
      const deps: JobDeps = {
        store,
        clock,
        config: loadConfig({}),
        blobs: directoryBlobStore('/nonexistent'),
      };
      const runs: string[] = [];
      let release!: () => void;
      const block = new Promise<void>((resolve) => (release = resolve));
      const job = countingJob(runs, { block });
      const first = startScheduler(deps, [job], {
        owner: 'a',
        tickMs: 1000,
        log: quiet,
        autostart: false,
      });
      const second = startScheduler(deps, [job], {
        owner: 'b',
        tickMs: 1000,
        log: quiet,
        autostart: false,
      });
      const firstTick = first.tick();
      // Let the first scheduler take the lease before the second looks.
      while (runs.length === 0) await new Promise((resolve) => setImmediate(resolve));
      await second.tick();
      assert.deepEqual(runs, ['run'], 'the second instance skipped the job the first holds');
      assert.deepEqual(await runJobOnce(deps, job, 'c'), { ran: false, reason: 'locked' });
      release();
      await firstTick;
      await second.tick();
      assert.deepEqual(runs, ['run'], 'not due again until its interval passes');
      clock.advance(60_000);
      await second.tick();
      assert.deepEqual(runs, ['run', 'run'], 'due after the interval, on whichever instance ticks');
      await first.stop();
      await second.stop();
    } finally {
      await store.close();
    }
  });

  test(`[${database.name}] a job whose output is missing runs at once`, async () => {
    const store = await database.open();
    try {
      const clock = fixedClock('2026-11-20T00:00:00Z');
      const deps: JobDeps = {
        store,
        clock,
        config: loadConfig({}),
        blobs: directoryBlobStore('/nonexistent'),
      };
      const runs: string[] = [];
      let missing = false;
      const scheduler = startScheduler(deps, [countingJob(runs, { missing: () => missing })], {
        owner: 'a',
        tickMs: 1000,
        log: quiet,
        autostart: false,
      });
      await scheduler.tick();
      await scheduler.tick();
      assert.equal(runs.length, 1);
      missing = true;
      await scheduler.tick();
      assert.equal(runs.length, 2);
      await scheduler.stop();
    } finally {
      await store.close();
    }
  });

  test(`[${database.name}] stopping with a job still running at the deadline releases its lease at once`, async () => {
    const store = await database.open();
    try {
      const clock = fixedClock('2026-11-20T00:00:00Z');
      const deps: JobDeps = {
        store,
        clock,
        config: loadConfig({}),
        blobs: directoryBlobStore('/nonexistent'),
      };
      const runs: string[] = [];
      const job = countingJob(runs, { block: new Promise<void>(() => {}) });
      const scheduler = startScheduler(deps, [job], {
        owner: 'stopping',
        tickMs: 1000,
        log: quiet,
        autostart: false,
      });
      void scheduler.tick();
      while (runs.length === 0) await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(await runJobOnce(deps, job, 'other'), { ran: false, reason: 'locked' });

      assert.deepEqual(await scheduler.stop(50), { abandoned: 'counting' });
      const other = await runJobOnce(deps, countingJob(runs), 'other');
      assert.deepEqual(other, { ran: true, summary: 'done' }, 'another instance takes it at once');
      assert.equal(runs.length, 2);
    } finally {
      await store.close();
    }
  });

  test(`[${database.name}] stopping waits for a job that finishes within the deadline`, async () => {
    const store = await database.open();
    try {
      const clock = fixedClock('2026-11-20T00:00:00Z');
      const deps: JobDeps = {
        store,
        clock,
        config: loadConfig({}),
        blobs: directoryBlobStore('/nonexistent'),
      };
      const runs: string[] = [];
      const job = countingJob(runs, { block: new Promise((resolve) => setTimeout(resolve, 50)) });
      const scheduler = startScheduler(deps, [job], {
        owner: 'a',
        tickMs: 1000,
        log: quiet,
        autostart: false,
      });
      void scheduler.tick();
      while (runs.length === 0) await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(await scheduler.stop(5_000), { abandoned: null });
      const state = await store.db
        .selectFrom('job_locks')
        .selectAll()
        .where('name', '=', 'counting')
        .executeTakeFirstOrThrow();
      assert.equal(state.owner, null);
      assert.equal(state.last_error, null, 'it finished on its own');
    } finally {
      await store.close();
    }
  });
}

test('a job awaited by the start is awaited until its run ends, then its listeners are told', async () => {
  const store = await testDatabases[0]!.open();
  try {
    const deps: JobDeps = {
      store,
      clock: fixedClock('2026-11-20T00:00:00Z'),
      config: loadConfig({}),
      blobs: directoryBlobStore('/nonexistent'),
    };
    const runs: string[] = [];
    let release!: () => void;
    const block = new Promise<void>((resolve) => (release = resolve));
    const progress = createJobProgress();
    const ended: string[] = [];
    progress.onEnded((name) => ended.push(name));
    progress.expect('counting');
    const scheduler = startScheduler(deps, [countingJob(runs, { block })], {
      owner: 'a',
      tickMs: 1000,
      log: quiet,
      autostart: false,
      progress,
    });
    const tick = scheduler.tick();
    while (runs.length === 0) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(progress.awaiting('counting'), true, 'while the run is under way');
    release();
    await tick;
    assert.equal(progress.awaiting('counting'), false);
    assert.deepEqual(ended, ['counting']);
    await scheduler.stop();
  } finally {
    await store.close();
  }
});
