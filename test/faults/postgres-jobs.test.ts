/**
 * Jobs and ingest while PostgreSQL refuses connections: each run fails cleanly with a
 * "store unavailable" error, nothing is half written, the scheduler keeps going, and the next
 * run after the database is back does the work — even of a job whose lease the lost run could
 * not give back.
 */
import { findMatchMembers } from '../../src/store/match-documents.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/store/store.ts';
import { syncSeasons } from '../../src/store/seasons.ts';
import { isStoreUnavailable } from '../../src/store/store-errors.ts';
import { directoryBlobStore } from '../../src/blobs/directory-blob-store.ts';
import { systemClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { JOBS } from '../../src/jobs/index.ts';
import { startScheduler } from '../../src/jobs/scheduler.ts';
import { acquireJobLease } from '../../src/store/job-locks.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { ownDatabase } from './fault-helpers.ts';

const skip = process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL';

test(
  'jobs and ingest fail their run cleanly while the database is gone, and work once it is back',
  { skip, timeout: 60_000 },
  async () => {
    const db = await ownDatabase('jobs');
    await db.create();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-fault-jobs-'));
    const store = await openStore(db.url, { connectTimeoutMs: 1_000 });
    try {
      const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: db.url });
      const deps = {
        store,
        blobs: directoryBlobStore(path.join(dataDir, 'blobs')),
        config,
        clock: systemClock,
      };
      await syncSeasons(store, Date.now());
      const match = makeMatchInput({
        seed: 'during-outage',
        telemetry: true,
        overrides: { createdAt: new Date(Date.now() - 3_600_000).toISOString() },
      });
      const log = { info: [] as string[], error: [] as string[] };
      const scheduler = startScheduler(deps, JOBS, {
        owner: 'fault-test',
        tickMs: 60_000,
        autostart: false,
        log: { info: (m) => log.info.push(m), error: (m) => log.error.push(m) },
      });

      // A leaderboards run (its output is missing, so it is due at once) that lost the database
      // before it could give its lease back.
      assert.ok(
        await acquireJobLease(store.db, {
          name: 'leaderboards',
          owner: 'fault-test',
          now: Date.now(),
          leaseMs: 900_000,
        }),
      );
      await db.allowConnections(false);
      await db.terminateBackends();
      await scheduler.tick();
      assert.equal(log.info.length, 0, 'no job ran');
      assert.equal(log.error.length, JOBS.length, log.error.join('\n'));
      // A pooled session may be cut under the first query, before the pool has noticed.
      for (const line of log.error) {
        assert.match(
          line,
          /No connection to PostgreSQL|terminating connection|Connection terminated/,
        );
      }
      await assert.rejects(ingestMatch(deps, match), (error: unknown) => isStoreUnavailable(error));

      await db.allowConnections(true);
      const ingested = await ingestMatch(deps, match);
      assert.deepEqual([ingested.status, ingested.matchId], ['ingested', match.id]);
      await scheduler.tick();
      assert.deepEqual(
        log.info.map((line) => line.split(':')[0]),
        JOBS.map((job) => `job ${job.name}`),
        log.error.join('\n'),
      );
      const stored = await findMatchMembers(store.db, match.id, match.platformShard);
      assert.equal(stored.participants.length, 4, 'the match was stored whole, once');
      await scheduler.stop();
    } finally {
      await store.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
);
