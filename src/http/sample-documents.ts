/**
 * The sample documents the samples endpoint serves: the lookup of the list (or, on a platform
 * shard, the lists of its regions) a request names, rendered and gzipped once and kept as bytes
 * (DESIGN §6) until its list changes.
 */
import zlib from 'node:zlib';
import { v5 as uuidV5 } from 'uuid';
import { retentionWindowMs, type Config } from '../config.ts';
import type { Clock } from '../clock.ts';
import { retentionCutoff } from '../domain/retention.ts';
import { latestSampleTime, samplePeriodMs } from '../domain/samples.ts';
import { regionsOf, spellShard, type ResolvedShard } from '../domain/shards.ts';
import { isoSeconds } from '../domain/time.ts';
import { renderSample } from '../presenters/sample-document.ts';
import {
  findLatestSampleLists,
  findSampleListsCovering,
  listSampleEntries,
  type SampleList,
} from '../store/samples.ts';
import type { Store } from '../store/store.ts';
import { DocumentCache } from './document-cache.ts';
import { notFound } from './jsonapi.ts';
import { CREATED_AT_START } from './sample-filter.ts';

/**
 * Bytes of rendered samples kept: both encodings of every region's lists over 14 days at the
 * default SAMPLE_SIZE (about 20 MB) for the canonical spelling, the hot ones for others.
 */
const CACHE_BYTES = 32 * 1024 * 1024;

/** Namespace of the ids of platform samples (the union of regional lists), so they are stable. */
const PLATFORM_SAMPLE_NAMESPACE = '6f0b4c1e-2f53-4d8a-9a51-0c3e7d2b9f14';

export interface ServedSample {
  body: Buffer;
  bodyGzip: Buffer;
  /** The sample's time (epoch ms). */
  createdAt: number;
  /** createdAt of its oldest match (Infinity when empty): the rendering is stale once retention passes it. */
  oldestMatchAt: number;
  /** The sample lists it renders (one, or a platform's regions'). */
  listIds: string[];
}

export interface SampleDocuments {
  /**
   * The sample a request names: the newest (`at` null) or the one whose window holds `at`, with
   * the time (epoch ms) until which clients may cache it. A 404 when there is none (yet).
   */
  find(
    shard: ResolvedShard,
    at: number | null,
  ): Promise<{ sample: ServedSample; freshUntil: number }>;
}

export function sampleDocuments(deps: {
  config: Readonly<Config>;
  store: Store;
  clock: Clock;
}): SampleDocuments {
  const { config, store, clock } = deps;
  const periodMs = samplePeriodMs(config.samplesIntervalHours);
  const retentionMs = retentionWindowMs(config);
  const cache = new DocumentCache<ServedSample>(CACHE_BYTES);

  async function render(
    shard: ResolvedShard,
    regions: readonly string[],
    lists: readonly SampleList[],
    latest: boolean,
    since: number,
  ): Promise<ServedSample> {
    const first = lists[0]!;
    const entries = await listSampleEntries(
      store.db,
      lists.map((list) => list.id),
      since,
    );
    const spellings = new Map<string, string>();
    const spell = (platform: string): string => {
      let spelling = spellings.get(platform);
      if (spelling === undefined) {
        spelling = spellShard(platform, shard, config.shardAliases);
        spellings.set(platform, spelling);
      }
      return spelling;
    };
    const path = `${config.publicBaseUrl}/shards/${shard.spelling}/samples`;
    const body = Buffer.from(
      renderSample({
        id:
          regions.length === 1
            ? first.id
            : uuidV5(`${shard.canonical}@${first.createdAt}`, PLATFORM_SAMPLE_NAMESPACE),
        createdAt: first.createdAt,
        shardId: shard.spelling,
        matches: entries.map((entry) => ({ id: entry.matchId, shardId: spell(entry.platform) })),
        // A permalink when a time was asked for: any time of the window names the same list.
        self: latest ? path : `${path}?${CREATED_AT_START}=${isoSeconds(first.windowStart)}`,
      }),
    );
    return {
      body,
      bodyGzip: zlib.gzipSync(body),
      createdAt: first.createdAt,
      oldestMatchAt: entries.reduce((oldest, entry) => Math.min(oldest, entry.createdAt), Infinity),
      listIds: lists.map((list) => list.id),
    };
  }

  return {
    async find(shard, at) {
      const now = clock.now();
      // pc-a is both: as a region it is its own list. A platform is the union of its regions',
      // a combined shard the union of its platforms' regions.
      const regions = shard.isRegion ? [shard.canonical] : shard.platforms.flatMap(regionsOf);
      const lists =
        at === null
          ? await findLatestSampleLists(store.db, regions)
          : await findSampleListsCovering(store.db, regions, at);
      const latestTime = latestSampleTime(now, periodMs);
      if (lists.length === 0) {
        if (at === null) throw notFound(`No sample on shard '${shard.spelling}' yet`);
        throw notFound(
          at >= latestTime
            ? `No sample covers ${isoSeconds(at)} yet: it is published at ${isoSeconds(latestTime + periodMs)}`
            : `No sample covers ${isoSeconds(at)} on shard '${shard.spelling}'`,
        );
      }
      const since = retentionCutoff(config.retentionDays, now);
      const key = `${shard.spelling}|${at === null ? 'latest' : 'window'}|${lists
        .map((list) => `${list.id}@${list.revision}`)
        .join(',')}`;
      let sample = cache.get(key);
      if (sample === undefined || since > sample.oldestMatchAt) {
        sample = await render(shard, regions, lists, at === null, since);
        cache.set(key, sample, sample.body.length + sample.bodyGzip.length);
      }
      // Fresh until the next sample is due — at once for a newest list that is overdue — and
      // never past the moment its oldest match leaves retention.
      const nextDue = at === null && sample.createdAt < latestTime ? now : latestTime + periodMs;
      const freshUntil = Math.min(nextDue, sample.oldestMatchAt + retentionMs);
      return { sample, freshUntil };
    },
  };
}
