/**
 * The `:shard` path segment of sharded endpoints: resolving it (canonical names and operator
 * aliases), refusing the kinds of shard an endpoint does not take with an error that names the
 * shard and what to use instead, and spelling shards in responses the way the client does.
 */
import type { FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import {
  PC_PLATFORMS,
  isPcPlatform,
  regionsOf,
  resolveShard,
  spellShard,
  type ResolvedShard,
} from '../domain/shards.ts';
import { badRequest, notFound } from './jsonapi.ts';

type ShardConfig = Pick<Config, 'shardAliases'>;

/** The 400 of an endpoint that does not take a combined shard, as its API reference words it. */
export const COMBINED_SHARD_REFUSED = "the combined shard 'console' (ask on 'psn' or 'xbox')";

/** What the endpoints that take a combined shard (COMBINED_SHARDS) serve on it, for its 400. */
const SERVED_ON_COMBINED = 'matches, samples and mastery';

/**
 * The shard named by a request path, or a 404 naming it when it is neither a shard nor an
 * alias. A combined shard (`console`) is a 400 naming the platforms to ask instead, unless the
 * endpoint takes it (`combined`) and reads every platform of `platforms`.
 */
export function requestShard(
  spelling: string,
  config: ShardConfig,
  options: { combined?: boolean } = {},
): ResolvedShard {
  const shard = resolveShard(spelling, config.shardAliases, { combined: true });
  if (!shard) throw notFound(`Unknown shard '${spelling}'`);
  if (shard.isCombined && options.combined !== true) {
    const each = shard.platforms.map(
      (platform) => `'${spellShard(platform, shard, config.shardAliases)}'`,
    );
    throw badRequest(
      `The shard '${shard.spelling}' serves ${SERVED_ON_COMBINED} of ${each.join(' and ')} ` +
        `together; ask for this on ${each.join(' or ')}`,
    );
  }
  return shard;
}

/** What an endpoint (or one season of the season stats endpoint) accepts. */
export interface ShardRule {
  platform: boolean;
  region: boolean;
  /** Only the PC platforms (and their regions, where regions are accepted). */
  pcOnly?: boolean;
}

/**
 * Throws a 400 unless the shard is of a kind the rule accepts. `subject` is what the endpoint
 * serves, as a plural noun phrase ("Lifetime stats"), so the error reads as a sentence:
 * "Lifetime stats are served on a platform shard such as 'steam', not on the platform-region
 * shard 'pc-eu'". `pc-a` is both a platform and a region shard, and passes either rule.
 */
export function enforceShardRule(
  shard: ResolvedShard,
  rule: ShardRule,
  subject: string,
  config: ShardConfig,
): void {
  const spell = (canonical: string): string => spellShard(canonical, shard, config.shardAliases);
  if (rule.pcOnly && !isPcPlatform(shard.platform)) {
    const pcShards = PC_PLATFORMS.map((platform) => `'${spell(platform)}'`).join(', ');
    throw badRequest(
      `${subject} are served on PC shards only (${pcShards}), not on '${shard.spelling}'`,
    );
  }
  if ((rule.platform && shard.isPlatform) || (rule.region && shard.isRegion)) return;
  if (rule.platform) {
    throw badRequest(
      `${subject} are served on a platform shard such as '${spell(shard.platform)}', ` +
        `not on the platform-region shard '${shard.spelling}'`,
    );
  }
  const example = regionsOf(shard.platform)[0];
  const suggestion = example === undefined ? '' : ` such as '${spell(example)}'`;
  throw badRequest(
    `${subject} are served on a platform-region shard${suggestion}, ` +
      `not on the platform shard '${shard.spelling}'`,
  );
}

/**
 * The platform of a shard, spelled in the requesting client's vocabulary (`steam` for pc-b …);
 * a combined shard is its own platform's name.
 */
export function platformSpelling(shard: ResolvedShard, config: ShardConfig): string {
  return shard.isCombined ? shard.spelling : spellShard(shard.platform, shard, config.shardAliases);
}

/**
 * Marks the answer to a deprecated-but-served request (a platform-region shard where the
 * platform shard is meant): the response is the platform's, with a `Deprecation` header.
 */
export function markDeprecatedRegion(shard: ResolvedShard, reply: FastifyReply): void {
  if (!shard.isPlatform) reply.header('deprecation', 'true');
}

const DEPRECATED = Object.freeze({ deprecation: 'true' });
const NONE = Object.freeze({});

/** markDeprecatedRegion's header as data, for answers kept and sent again (keyed-documents.ts). */
export function deprecationHeaders(shard: ResolvedShard): Readonly<Record<string, string>> {
  return shard.isPlatform ? NONE : DEPRECATED;
}
