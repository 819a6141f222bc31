/**
 * A watched player's documents that the store keeps as recorded — ranked stats of the current
 * season, weapon and survival mastery — fetched from upstream (limited requests) and stored
 * through ingest's entry point for recordings (`ingestEntity`), so they are served as upstream
 * last said them (recording-precedence.ts decides against what matches derive later).
 */
import { resolveShard } from '../domain/shards.ts';
import type { IngestDeps } from '../ingest/ingest-deps.ts';
import { ingestEntity } from '../ingest/ingest-entity.ts';
import { IngestError } from '../ingest/ingest-error.ts';
import type { UpstreamClient, UpstreamRequestOptions } from './upstream-client.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class RecordingMirror {
  /** The current season id per shard, asked once per process. */
  private readonly seasons = new Map<string, string | null>();

  constructor(
    private readonly deps: IngestDeps,
    private readonly client: UpstreamClient,
    private readonly log: (message: string) => void = () => {},
  ) {}

  /** Refreshes the player's recordings; returns how many were stored (changed or new). */
  async refresh(
    shard: string,
    accountId: string,
    request: UpstreamRequestOptions,
  ): Promise<number> {
    const platform = resolveShard(shard, this.deps.config.shardAliases)?.platform;
    if (platform === undefined) return 0;
    const base = `/shards/${encodeURIComponent(shard)}/players/${encodeURIComponent(accountId)}`;
    const paths = [`${base}/weapon_mastery`, `${base}/survival_mastery`];
    const season = await this.currentSeason(shard, request);
    if (season !== null) paths.push(`${base}/seasons/${encodeURIComponent(season)}/ranked`);
    let stored = 0;
    for (const path of paths) {
      const answer = await this.client.get(path, request);
      if (answer.status !== 200) continue; // none upstream (a 404): nothing to record
      try {
        const document: unknown = JSON.parse(answer.body.toString('utf8'));
        const result = await ingestEntity(this.deps, document, {
          raw: answer.body,
          platform,
          recordedAt: this.deps.clock.now(),
        });
        if (result.status !== 'duplicate') stored++;
      } catch (error) {
        if (!(error instanceof IngestError || error instanceof SyntaxError)) throw error;
        this.log(`upstream ${path} not recorded: ${error.message}`);
      }
    }
    return stored;
  }

  private async currentSeason(shard: string, request: UpstreamRequestOptions) {
    if (this.seasons.has(shard)) return this.seasons.get(shard)!;
    const answer = await this.client.get(`/shards/${encodeURIComponent(shard)}/seasons`, request);
    let current: string | null = null;
    if (answer.status === 200) {
      const document: unknown = JSON.parse(answer.body.toString('utf8'));
      const data = isObject(document) && Array.isArray(document.data) ? document.data : [];
      const season = data.find(
        (s) => isObject(s) && isObject(s.attributes) && s.attributes.isCurrentSeason === true,
      ) as Json | undefined;
      current = season ? String(season.id) : null;
    }
    this.seasons.set(shard, current);
    return current;
  }
}
