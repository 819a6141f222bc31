/**
 * `serve`'s ingest workers are processes of their own (src/ingest/prepare-process.ts): they
 * must not outlive the server, whether it stops as asked or is killed outright.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { childProcessesOf } from '../../src/jobs/job-priority.ts';
import { startServer } from './fault-helpers.ts';

const linux = fs.existsSync('/proc/self/task');

/** The ingest worker processes process `pid` started (by their command line). */
function workerProcessesOf(pid: number): number[] {
  return childProcessesOf(pid).filter((child) => {
    try {
      return fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('prepare-child');
    } catch {
      return false; // ended meanwhile
    }
  });
}

/** True once process `pid` has ended (gone, or a zombie waiting to be reaped). */
async function endsWithin(pid: number, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await sleep(50)) {
    try {
      if (/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))) return true;
    } catch {
      return true;
    }
  }
  return false;
}

for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
  test(
    `the server's ingest worker processes end with it (${signal})`,
    { skip: linux ? false : 'reads /proc', timeout: 60_000 },
    async () => {
      const server = await startServer({ INGEST_WORKERS: '2' });
      try {
        await server.waitFor(/is serving/, 30_000);
        const workers = workerProcessesOf(server.child.pid!);
        assert.equal(workers.length, 2, 'INGEST_WORKERS processes, started with the service');
        server.child.kill(signal);
        await server.exited;
        for (const worker of workers) {
          assert.ok(
            await endsWithin(worker, 10_000),
            `worker ${worker} still runs after ${signal}`,
          );
        }
      } finally {
        await server.stop();
      }
    },
  );
}
