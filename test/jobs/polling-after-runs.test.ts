import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollingAfterRuns, type JobRunner } from '../../src/jobs/job-thread-runner.ts';
import type { Job, JobDeps } from '../../src/jobs/scheduler.ts';

const job = { name: 'leaderboards' } as Job;
const deps = {} as JobDeps;

function recording(outcome: () => Promise<string>) {
  const events: string[] = [];
  const runner: JobRunner = {
    run: async () => {
      events.push('run');
      try {
        return await outcome();
      } finally {
        events.push('ran');
      }
    },
    close: async () => {
      events.push('close');
    },
  };
  const feed = {
    poll: async () => {
      events.push('poll');
    },
  };
  return { events, wrapped: pollingAfterRuns(runner, feed) };
}

test('the change feed is read once a job run ends, before the run is reported', async () => {
  const { events, wrapped } = recording(async () => 'built 4 boards');
  assert.equal(await wrapped.run(job, deps, { rebuild: false }), 'built 4 boards');
  assert.deepEqual(events, ['run', 'ran', 'poll']);
});

test('a failed run is still followed by a read of the feed, and still fails', async () => {
  const { events, wrapped } = recording(async () => {
    throw new Error('database gone');
  });
  await assert.rejects(wrapped.run(job, deps, { rebuild: false }), /database gone/);
  assert.deepEqual(events, ['run', 'ran', 'poll']);
  await wrapped.close();
  assert.equal(events.at(-1), 'close');
});
