import { isoSeconds } from '../domain/time.ts';
import { DEFAULT_TITLE_ID } from '../ingest/match-rows.ts';

/** A sample as served: one list, or the union of a platform's regional lists of one time. */
export interface SampleView {
  id: string;
  /** The sample's time (epoch ms): the end of its window. */
  createdAt: number;
  /** The shard as the request spelled it. */
  shardId: string;
  /** Match ids, each with the platform shard it resolves on, spelled for the client. */
  matches: ReadonlyArray<{ id: string; shardId: string }>;
  self: string;
}

/**
 * `GET /shards/<shard>/samples`: the sample with its match references. Each reference carries
 * the shard to look the match up on (spec §2 "Sample entry") in its `meta` — valid JSON:API
 * that clients reading `type`/`id` ignore — so `/shards/<meta.shardId>/matches/<id>` finds it.
 */
export function renderSample(sample: SampleView): string {
  return JSON.stringify({
    data: {
      type: 'sample',
      id: sample.id,
      attributes: {
        createdAt: isoSeconds(sample.createdAt),
        titleId: DEFAULT_TITLE_ID,
        shardId: sample.shardId,
      },
      relationships: {
        matches: {
          data: sample.matches.map((match) => ({
            type: 'match',
            id: match.id,
            meta: { shardId: match.shardId },
          })),
        },
      },
    },
    links: { self: sample.self },
    meta: {},
  });
}
