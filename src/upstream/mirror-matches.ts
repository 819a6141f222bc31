/**
 * Matches and their telemetry files copied from the upstream into the store through the
 * ingest pipeline's recorded-match entry point, so the document and the file are kept byte for
 * byte (links aside, which then name this service) and the match feeds players, stats, samples
 * and leaderboards like any ingested match. A match never changes: once stored with its
 * telemetry it is never fetched again. Neither costs upstream budget (the public service does
 * not limit matches and telemetry).
 */
import type { IngestDeps } from '../ingest/ingest-deps.ts';
import { IngestError, IngestTooLargeError } from '../ingest/ingest-error.ts';
import { ingestRecordedMatch } from '../ingest/recorded-match.ts';
import { findStoredMatch } from '../store/ingest-writes.ts';
import { SingleFlight } from './single-flight.ts';
import { UpstreamUnavailableError, type UpstreamClient } from './upstream-client.ts';
import { isObject } from '../domain/json-object.ts';

/**
 * What fetching a match did: `stored` (now held, with its telemetry when upstream has it),
 * `held` (it was held with its telemetry already: no request), `missing` (upstream has none, or
 * this service refuses it — past RETENTION_DAYS, or not a match document it understands).
 */
export type MirroredMatch = 'stored' | 'held' | 'missing';

export class MatchMirror {
  private readonly flights = new SingleFlight<MirroredMatch>();

  constructor(
    private readonly deps: IngestDeps,
    private readonly client: UpstreamClient,
    private readonly log: (message: string) => void = () => {},
  ) {}

  /**
   * Makes sure the match is stored with its telemetry, fetching both from upstream on the shard
   * spelled `shard` when not. Throws UpstreamUnavailableError / UpstreamBusyError.
   */
  fetch(shard: string, matchId: string, signal?: AbortSignal): Promise<MirroredMatch> {
    return this.flights.run(matchId, () => this.copy(shard, matchId, signal));
  }

  private async copy(shard: string, matchId: string, signal?: AbortSignal): Promise<MirroredMatch> {
    const stored = await findStoredMatch(this.deps.store.db, matchId);
    if (stored !== null && stored.telemetryKey !== null) return 'held';
    const path = `/shards/${encodeURIComponent(shard)}/matches/${encodeURIComponent(matchId)}`;
    const answer = await this.client.get(path, { limited: false, ...(signal ? { signal } : {}) });
    if (answer.status === 404) return 'missing';
    if (answer.status !== 200) {
      throw new UpstreamUnavailableError(`upstream answered ${answer.status} for match ${matchId}`);
    }
    let document: unknown;
    try {
      document = JSON.parse(answer.body.toString('utf8'));
    } catch {
      throw new UpstreamUnavailableError(`upstream sent a match ${matchId} that is not JSON`);
    }
    const url = telemetryUrlOf(document);
    let telemetry: Buffer | undefined;
    if (url !== null) {
      const file = await this.client.getUrl(url, signal);
      // A file not there (yet): the match is stored without it, and fetched again later.
      if (file.status === 200) telemetry = file.body;
    }
    try {
      await ingestRecordedMatch(this.deps, document, {
        raw: answer.body,
        ...(telemetry ? { telemetry } : {}),
      });
    } catch (error) {
      if (!(error instanceof IngestError || error instanceof IngestTooLargeError)) throw error;
      this.log(`upstream match ${matchId} not stored: ${error.message}`);
      return 'missing';
    }
    return 'stored';
  }
}

/** The telemetry file URL of a match document's asset, or null when it names none. */
export function telemetryUrlOf(document: unknown): string | null {
  if (!isObject(document) || !Array.isArray(document.included)) return null;
  for (const item of document.included) {
    if (isObject(item) && item.type === 'asset' && isObject(item.attributes)) {
      const url = item.attributes.URL;
      if (typeof url === 'string' && url !== '') return url;
    }
  }
  return null;
}
