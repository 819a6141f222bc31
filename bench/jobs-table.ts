/** The Markdown table of the jobs-under-load rows (bench/jobs-under-load.ts), with its legend. */
import { P99_GOAL_MS } from './endpoint-catalogue.ts';
import { RSS_GOAL_BYTES, RSS_SAMPLE_MS, rssCell } from './memory.ts';
import { PROBES_PER_SECOND, STEADY_SHARE, type JobRow } from './jobs-under-load.ts';
import { count, latencyCell, markdownTable } from './report.ts';

export function jobsTable(rows: readonly JobRow[]): string {
  const table = markdownTable(
    [
      'job',
      'where',
      'job s',
      'runs',
      'probes during',
      'probe p99 ms without',
      'probe p99 ms during',
      'probe max ms during',
      'wrk req/s without',
      'wrk req/s with job',
      'wrk p99 ms without',
      'wrk p99 ms with job',
      'server RSS MB',
    ],
    rows.map((row) => [
      row.job,
      row.where,
      row.seconds.toFixed(2),
      String(row.runs),
      String(row.during.requests),
      latencyCell(row.without.p99Ms),
      latencyCell(row.during.p99Ms),
      latencyCell(row.during.maxMs, null),
      count(row.loadWithout.requestsPerSecond),
      count(row.loadDuring.requestsPerSecond),
      latencyCell(row.loadWithout.p99Ms),
      latencyCell(row.loadDuring.p99Ms),
      rssCell(row.serverRssBytes),
    ]),
  );
  return (
    `${table}\n\nGoals: p99 < ${P99_GOAL_MS} ms and the serving process's RSS < ` +
    `${RSS_GOAL_BYTES / 1_000_000} MB (its largest, sampled every ${RSS_SAMPLE_MS} ms, with the ` +
    `pages only its ingest worker processes hold) while any ` +
    `job runs. The probe sends ` +
    `${PROBES_PER_SECOND} requests/s over /status, a match, a player, a leaderboard page, samples ` +
    `and season stats, open loop, beside wrk's steady load on player lookups by name (100 players), ` +
    `paced at ${Math.round(STEADY_SHARE * 100)} % of what the server answers flat out; ` +
    '"another process" times `gamedata jobs run` from spawn to exit, its start included; ' +
    '`ingest` posts new matches (default telemetry inline) to `POST /ingest/matches`, two at a ' +
    'time, as game servers would, its "job s" the first four.'
  );
}
