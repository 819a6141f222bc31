/**
 * A watched player's documents that the store keeps as recorded — season and lifetime stats and
 * ranked stats of the upstream's current season, weapon and survival mastery — refreshed by
 * each crawl pass through the same read-through as the routes (mirror-documents.ts): limited
 * requests, the same per-kind TTL and cursors, so a pass and a client never fetch one document
 * twice within its TTL. Served as upstream last said them (recording-precedence.ts decides
 * against what matches derive later).
 */
import { LIFETIME } from '../domain/seasons.ts';
import { isPcPlatform, resolveShard } from '../domain/shards.ts';
import type { IngestDeps } from '../ingest/ingest-deps.ts';
import { rankedRecordingId } from '../store/recorded-documents.ts';
import type { DocumentMirror, RecordedLookup } from './mirror-documents.ts';
import type { UpstreamClient, UpstreamRequestOptions } from './upstream-client.ts';
import { isObject, type Json } from '../domain/json-object.ts';

export class RecordingMirror {
  /** The current season id per shard, asked once per process. */
  private readonly seasons = new Map<string, string | null>();

  constructor(
    private readonly deps: IngestDeps,
    private readonly client: UpstreamClient,
    private readonly documents: DocumentMirror,
  ) {}

  /** Refreshes the player's recordings due; returns how many were stored (changed or new). */
  async refresh(
    shard: string,
    accountId: string,
    request: UpstreamRequestOptions,
  ): Promise<number> {
    const platform = resolveShard(shard, this.deps.config.shardAliases)?.platform;
    if (platform === undefined) return 0;
    const base = `/shards/${encodeURIComponent(shard)}/players/${encodeURIComponent(accountId)}`;
    const lookups: RecordedLookup[] = [
      { kind: 'weaponMasterySummary', shard, id: accountId, path: `${base}/weapon_mastery` },
      { kind: 'survivalMasterySummary', shard, id: accountId, path: `${base}/survival_mastery` },
    ];
    const seasons = [...(isPcPlatform(platform) ? [LIFETIME] : [])];
    const season = await this.currentSeason(shard, request);
    if (season !== null) {
      seasons.push(season);
      const path = `${base}/seasons/${encodeURIComponent(season)}/ranked`;
      const id = rankedRecordingId(accountId, season);
      lookups.push({ kind: 'rankedplayerstats', shard, id, path });
    }
    for (const id of seasons) {
      const path = `${base}/seasons/${encodeURIComponent(id)}`;
      lookups.push({ kind: 'playerSeason', shard, id: rankedRecordingId(accountId, id), path });
    }
    const before = this.documents.stored;
    for (const lookup of lookups) await this.documents.refresh(lookup, request);
    return this.documents.stored - before;
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
