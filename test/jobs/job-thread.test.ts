import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/runtime.ts';
import { findJob } from '../../src/jobs/index.ts';
import { canRunInThread, threadRunner } from '../../src/jobs/job-thread-runner.ts';

test('a job in the job thread leaves the event loop free: a request is answered while it waits', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-thread-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  assert.equal(canRunInThread(config), true);
  const runtime = await openRuntime(config);
  const app = await buildApp({ ...runtime, logger: false });
  const runner = threadRunner(config);
  // A third connection holds the write lock: the job blocks (synchronously, in whichever thread
  // runs it) when it stores its build, and cannot end until the lock is let go.
  const holder = new BetterSqlite3(path.join(dataDir, 'gamedata.sqlite'));
  holder.pragma('busy_timeout = 5000');
  try {
    holder.exec('BEGIN IMMEDIATE');
    const events: string[] = [];
    const job = runner
      .run(findJob('leaderboards')!, runtime, { rebuild: false })
      .then((summary) => {
        events.push('job ended');
        return summary;
      });
    const status = await app.inject({ method: 'GET', url: '/healthz' });
    events.push(`request answered ${status.statusCode}`);
    holder.exec('COMMIT');
    const summary = await job;
    assert.deepEqual(events, ['request answered 200', 'job ended']);
    assert.match(summary, /^built 12 leaderboards/);
    const builds = await runtime.store.db.selectFrom('leaderboards').select('id').execute();
    assert.equal(builds.length, 12, 'the thread wrote to the same store');
  } finally {
    holder.close();
    await runner.close();
    await app.close();
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a failing job in the thread fails its run, and the thread serves the next one', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-thread-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const runtime = await openRuntime(config);
  const runner = threadRunner(config);
  try {
    const missing = { ...findJob('leaderboards')!, name: 'no-such-job' };
    await assert.rejects(runner.run(missing, runtime, { rebuild: false }), /no job named/);
    const summary = await runner.run(findJob('seasons')!, runtime, { rebuild: false });
    assert.equal(typeof summary, 'string');
  } finally {
    await runner.close();
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
