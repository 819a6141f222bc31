/**
 * One pass of `gamedata mirror` over the upstream, with a progress bar on a terminal; what it
 * stored marks the derived-data jobs for a rebuild.
 */
import cliProgress from 'cli-progress';
import type { Runtime } from '../runtime.ts';
import type { Mirror } from '../upstream/mirror.ts';
import { crawlUpstream, type CrawlSummary } from '../upstream/mirror-crawl.ts';
import { requestDerivedDataRebuild } from '../jobs/index.ts';

/** One pass with a progress bar on a terminal; null when a stop signal ended it. */
export async function crawlPass(
  runtime: Runtime,
  mirror: Mirror,
  shards: readonly string[],
  signal: AbortSignal | undefined,
  interactive: boolean,
): Promise<CrawlSummary | null> {
  const bar = interactive
    ? new cliProgress.SingleBar(
        {
          stream: process.stderr,
          hideCursor: true,
          format: 'mirror [{bar}] {value}/{total} matches | {stored} new | {duration_formatted}',
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  let total = 0;
  let stored = 0;
  bar?.start(0, 0, { stored });
  try {
    const summary = await crawlUpstream(runtime, mirror, {
      shards,
      ...(signal ? { signal } : {}),
      log: (message) => process.stderr.write(`${message}\n`),
      progress: {
        found: (count) => bar?.setTotal((total += count)),
        done: (result) => bar?.increment(1, { stored: result === 'stored' ? ++stored : stored }),
      },
    });
    // Samples and leaderboards derived from the matches are redone at the next job tick.
    if (summary.matches.stored > 0) await requestDerivedDataRebuild(runtime.store.db);
    return summary;
  } catch (error) {
    if (signal?.aborted) return null;
    throw error;
  } finally {
    bar?.stop();
  }
}
