/**
 * Ingest of a clan and of a player's status (clan-input.ts documents both formats). Each is one
 * transaction: refused input (an unknown member, player or clan) stores nothing; input that
 * matches what is stored changes nothing (not even the clan's `updated_at`, which decides
 * whether a recorded clan document or the derived one is served).
 */
import type { TSchema, Static } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import {
  findClan,
  findPlayerStatuses,
  listClanMemberIds,
  setClanMembers,
  setPlayerStatus,
  touchClans,
  upsertClan,
} from '../store/clans.ts';
import { ClanInput, PlayerStatusInput } from './clan-input.ts';
import { IngestError } from './ingest-error.ts';
import { DOCUMENT_KINDS, announceDocumentChanges, playerTag } from '../store/document-changes.ts';
import type { IngestDeps } from './ingest-match.ts';
import { transactWithoutBlocking } from '../store/sqlite/lock-wait.ts';

/** The outcome of ingesting something other than a match. */
export interface EntityResult {
  status: 'ingested' | 'duplicate';
  /** What was ingested: `clan`, `playerStatus`, `recorded <type>`. */
  kind: string;
  /** The clan id, account id, or key of the recording. */
  id: string;
}

const clanChecker = TypeCompiler.Compile(ClanInput);
const playerStatusChecker = TypeCompiler.Compile(PlayerStatusInput);

/** The input if it passes the schema; otherwise an IngestError naming the first bad field. */
export function checkInput<T extends TSchema>(checker: TypeCheck<T>, input: unknown): Static<T> {
  if (checker.Check(input)) return input;
  const error = checker.Errors(input).First();
  throw new IngestError(error?.path.slice(1) || 'input', error?.message ?? 'invalid input');
}

/** Creates or updates a clan, and its whole membership when `members` is given. */
export async function ingestClan(deps: IngestDeps, input: unknown): Promise<EntityResult> {
  const clan = checkInput(clanChecker, input);
  const { platform, id } = clan;
  const now = deps.clock.now();
  return transactWithoutBlocking(deps.store, async (trx) => {
    const stored = await findClan(trx, platform, id);
    const members = clan.members === undefined ? null : [...clan.members].sort();
    let movedFrom: string[] = [];
    let formerMembers: readonly string[] = [];
    let sameMembers = true;
    if (members !== null) {
      const statuses = await findPlayerStatuses(trx, platform, members);
      const unknown = clan.members!.findIndex((member) => !statuses.has(member));
      if (unknown >= 0) {
        throw new IngestError(
          `members/${unknown}`,
          `no player ${clan.members![unknown]} on ${platform}; players enter through their matches`,
        );
      }
      movedFrom = [...statuses.values()].map((s) => s.clanId).filter((c) => c !== id);
      const current = await listClanMemberIds(trx, platform, id);
      formerMembers = current;
      sameMembers = current.join(',') === members.join(',');
    }
    const sameClan =
      stored !== null &&
      stored.name === clan.name &&
      stored.tag === clan.tag &&
      stored.level === clan.level;
    if (sameClan && sameMembers) return { status: 'duplicate', kind: 'clan', id };

    await upsertClan(trx, {
      platform,
      id,
      name: clan.name,
      tag: clan.tag,
      level: clan.level,
      updatedAt: now,
    });
    const tags: string[] = [DOCUMENT_KINDS.clans];
    if (members !== null && !sameMembers) {
      await setClanMembers(trx, platform, id, members);
      await touchClans(trx, platform, movedFrom, now);
      for (const member of [...members, ...formerMembers]) tags.push(playerTag(platform, member));
    }
    await announceDocumentChanges(trx, tags, now);
    return { status: 'ingested', kind: 'clan', id };
  });
}

/** Sets a stored player's ban type and/or clan (the clan must be stored, or "" for none). */
export async function ingestPlayerStatus(deps: IngestDeps, input: unknown): Promise<EntityResult> {
  const status = checkInput(playerStatusChecker, input);
  const { platform, accountId } = status;
  if (status.banType === undefined && status.clanId === undefined) {
    throw new IngestError('banType', 'a player status sets banType, clanId or both');
  }
  const now = deps.clock.now();
  return transactWithoutBlocking(deps.store, async (trx) => {
    const current = (await findPlayerStatuses(trx, platform, [accountId])).get(accountId);
    if (current === undefined) {
      throw new IngestError(
        'accountId',
        `no player ${accountId} on ${platform}; players enter through their matches`,
      );
    }
    const next = {
      banType: status.banType ?? current.banType,
      clanId: status.clanId ?? current.clanId,
    };
    if (next.clanId !== '' && next.clanId !== current.clanId) {
      if ((await findClan(trx, platform, next.clanId)) === null) {
        throw new IngestError(
          'clanId',
          `no clan ${next.clanId} on ${platform}; ingest the clan first`,
        );
      }
    }
    if (next.banType === current.banType && next.clanId === current.clanId) {
      return { status: 'duplicate', kind: 'playerStatus', id: accountId };
    }
    await setPlayerStatus(trx, platform, accountId, next);
    if (next.clanId !== current.clanId) {
      await touchClans(trx, platform, [current.clanId, next.clanId], now);
    }
    const tags = [playerTag(platform, accountId), DOCUMENT_KINDS.clans];
    await announceDocumentChanges(trx, tags, now);
    return { status: 'ingested', kind: 'playerStatus', id: accountId };
  });
}
