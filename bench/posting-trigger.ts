/**
 * Matches posted to `POST /ingest/matches` while requests are served, as game servers feed a
 * running service: the jobs-under-load bench's `ingest` row. Reads must not wait for a posted
 * match (parsed, checked, gzipped and rendered by the service's worker threads; its rows written
 * between the requests it answers), so the probe is held to the jobs' goal.
 */
import path from 'node:path';
import readline from 'node:readline';
import { loadConfig } from '../src/config.ts';
import { openRuntime } from '../src/runtime.ts';
import { createApiKey } from '../src/store/api-keys.ts';
import { BENCH_KEY_RATE_PER_MINUTE, dataDirEnv } from './bench-data.ts';
import { writeMatchSet } from './ingest-matches.ts';
import type { JobTrigger } from './job-triggers.ts';
import type { ChildRegistry } from './children.ts';
import { ROOT } from './project-root.ts';

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
 * The posting is done by a process of its own (match-poster.ts) on the load's CPUs, started
 * here, before any window is measured.
 */
export async function postingTrigger(
  children: ChildRegistry,
  origin: string,
  options: { dataDir: string; workDir: string; seed: number; cpus: string | null },
): Promise<JobTrigger> {
  const set = writeMatchSet('default', {
    seed: options.seed,
    count: POSTED_MATCHES,
    dir: path.join(options.workDir, 'posted-matches'),
  });
  const runtime = await openRuntime(loadConfig(dataDirEnv(options.dataDir)));
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
  const poster = children.spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(ROOT, 'bench/match-poster.ts'),
      origin,
      key,
      set.dir,
      `${POSTERS}`,
    ],
    { cwd: ROOT, cpus: options.cpus, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = readline.createInterface({ input: poster.stdout! });
  const nextLine = (prefix: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const onLine = (line: string): void => {
        if (!line.startsWith(prefix)) return;
        lines.off('line', onLine);
        poster.off('exit', onExit);
        resolve(line.slice(prefix.length));
      };
      const onExit = (): void => reject(new Error('the match poster ended'));
      lines.on('line', onLine);
      poster.once('exit', onExit);
    });
  await nextLine('READY');
  let left = set.inputs.length;
  return async () => {
    const started = performance.now();
    const count = Math.min(MATCHES_PER_RUN, left);
    left -= count;
    if (count === 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { seconds: 0.1, outcome: 'every match posted' };
    }
    const answered = nextLine('POSTED ');
    poster.stdin!.write(`post ${count}\n`);
    const { statuses } = JSON.parse(await answered) as { statuses: number[] };
    const created = statuses.filter((status) => status === 201).length;
    return {
      seconds: (performance.now() - started) / 1000,
      outcome: `${created} of ${count} matches created (${statuses.join(', ')})`,
    };
  };
}
