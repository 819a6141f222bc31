/**
 * Matches posted to `POST /ingest/matches` while requests are served, as game servers feed a
 * running service: the jobs-under-load bench's `ingest` row. Reads must not wait for a posted
 * match (parsed, checked, gzipped and rendered by the service's worker threads; its rows written
 * between the requests it answers), so the probe is held to the jobs' goal.
 */
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { openRuntime } from '../src/runtime.ts';
import { createApiKey } from '../src/store/api-keys.ts';
import { BENCH_KEY_RATE_PER_MINUTE, dataDirEnv } from './bench-data.ts';
import { writeMatchSet } from './ingest-matches.ts';
import type { JobTrigger } from './job-triggers.ts';

/**
 * Matches made for the row: about what two posters get through in the default window (3 s) at
 * some 50 ms a match, with room to spare; each is posted once (one posted again is only
 * compared, which costs little and would flatter the row).
 */
const POSTED_MATCHES = 80;
/** Matches in flight at once, as from two game servers. */
const POSTERS = 2;
/** Matches posted by one run of the trigger. */
const MATCHES_PER_RUN = 4;

/**
 * A trigger posting the next MATCHES_PER_RUN of POSTED_MATCHES new demo matches (default
 * telemetry inline; a seed of their own, so none is stored yet) to `origin`, POSTERS at a
 * time, with an ingest key made for it in `dataDir`. Once all are posted, a run only waits.
 */
export async function postingTrigger(
  origin: string,
  dataDir: string,
  workDir: string,
  seed: number,
): Promise<JobTrigger> {
  const set = writeMatchSet('default', {
    seed,
    count: POSTED_MATCHES,
    dir: path.join(workDir, 'posted-matches'),
  });
  const runtime = await openRuntime(loadConfig(dataDirEnv(dataDir)));
  let key: string;
  try {
    ({ key } = await createApiKey(runtime.store.db, {
      name: 'bench game server',
      scope: 'ingest',
      ratePerMinute: BENCH_KEY_RATE_PER_MINUTE,
      now: runtime.clock.now(),
    }));
  } finally {
    await runtime.close();
  }
  const queue = [...set.inputs];
  const post = async (body: Buffer): Promise<number> => {
    const response = await fetch(`${origin}/ingest/matches`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    });
    await response.arrayBuffer();
    return response.status;
  };
  return async () => {
    const started = performance.now();
    const batch = queue.splice(0, MATCHES_PER_RUN);
    if (batch.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { seconds: 0.1, outcome: 'every match posted' };
    }
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: POSTERS }, async () => {
        for (let body = batch.shift(); body !== undefined; body = batch.shift()) {
          statuses.push(await post(body));
        }
      }),
    );
    const created = statuses.filter((status) => status === 201).length;
    return {
      seconds: (performance.now() - started) / 1000,
      outcome: `${created} of ${statuses.length} matches created (${statuses.join(', ')})`,
    };
  };
}
