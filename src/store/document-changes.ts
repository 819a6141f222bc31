/**
 * What the keyed documents are rendered from, as tags a writer announces when it changes them, so
 * that rendered documents cached anywhere (src/http/keyed-documents.ts) are dropped: in this
 * process before the change commits, in every other process sharing the database at its change
 * feed's next poll (src/store/change-feed.ts).
 *
 * Fine tags name one player (`player`, by platform and account id) or one name (`name`: the
 * answer to a lookup by name depends on names that may not exist yet). Coarse tags name a whole
 * kind of document: a write that cannot say cheaply which documents it touched announces its
 * kind, and every document of that kind is rendered again.
 */
import { announceChanges } from './changes.ts';
import type { Db } from './store.ts';

/** The change feed kind of document changes; each row's key is a JSON array of tags. */
export const DOCUMENT_CHANGES = 'document';

/** Coarse tags: every document of one kind. Each cached document carries its kind's tag. */
export const DOCUMENT_KINDS = {
  /** Player documents, stats, ranked stats and mastery: everything read per player. */
  players: 'players',
  clans: 'clans',
  seasons: 'seasons',
  samples: 'samples',
  leaderboards: 'leaderboards',
  tournaments: 'tournaments',
} as const;

/** The documents of one player of a platform. */
export const playerTag = (platform: string, accountId: string): string =>
  `player\u0000${platform}\u0000${accountId}`;

/** The lookups by this name on a platform (including a name nobody has yet). */
export const nameTag = (platform: string, name: string): string =>
  `name\u0000${platform}\u0000${name}`;

/** The sample documents rendering the sample list `id` (a purge that takes entries from it). */
export const sampleListTag = (id: string): string => `sample\u0000${id}`;

/** The span of a `listedFrom` tag: purges are told to readers per hour of the matches they delete. */
const LISTED_FROM_SPAN_MS = 3_600_000;

/**
 * The documents whose oldest listed match was created in the hour of `createdAt` (epoch ms). A
 * document that lists matches carries the tag of its oldest one; a purge announces the hours of
 * the matches it deletes. That is enough: matches are purged oldest first, so a document listing
 * any purged match lists its own oldest among them, or one purged (and announced) before — and
 * a document that lists none of them, like any ranked, mastery or clan document, stays cached.
 */
export const listedFromTag = (createdAt: number): string => `${LISTED}${listedHour(createdAt)}`;

const LISTED = 'listed\u0000';

/** The span a match created at `createdAt` falls in, as `listedFromTag` names it. */
export const listedHour = (createdAt: number): number =>
  Math.floor(createdAt / LISTED_FROM_SPAN_MS);

/** The span a `listedFromTag` names; null for any other tag. */
export function listedHourOf(tag: string): number | null {
  if (!tag.startsWith(LISTED)) return null;
  const hour = Number(tag.slice(LISTED.length));
  return Number.isInteger(hour) ? hour : null;
}

/**
 * How long a tag announced in this process counts as pending (its documents read afresh) when
 * the change feed never delivers it back — the write rolled back — ms.
 */
export const ANNOUNCED_PENDING_MS = 60_000;

/** Tags per feed row: a row stays a few KB however many players a write touched. */
const TAGS_PER_ROW = 100;

/** Called with the tags a writer of this process is about to commit. */
export type LocalDocumentListener = (tags: readonly string[]) => void;

/**
 * Every listener of the process, whatever database it reads: a writer inside a transaction
 * cannot tell which store it belongs to, and a listener of another database only renders again.
 */
const localListeners = new Set<LocalDocumentListener>();

/**
 * Calls `listener` whenever a writer of this process announces tags, before its transaction
 * commits — so a cache can stop serving what the commit may change at once, rather than a poll
 * later. Returns the unsubscribe.
 */
export function watchLocalDocumentChanges(listener: LocalDocumentListener): () => void {
  localListeners.add(listener);
  return () => localListeners.delete(listener);
}

/**
 * Announces that the documents named by `tags` change with the transaction `db` belongs to
 * (call it as the transaction's last statement, see announceChanges); outside a transaction,
 * right after the write. `at` is epoch ms. Listeners of this process hear of it first.
 */
export async function announceDocumentChanges(
  db: Db,
  tags: readonly string[],
  at: number,
): Promise<void> {
  const unique = [...new Set(tags)];
  if (unique.length === 0) return;
  tellLocalListeners(unique);
  const keys: string[] = [];
  for (let offset = 0; offset < unique.length; offset += TAGS_PER_ROW) {
    keys.push(JSON.stringify(unique.slice(offset, offset + TAGS_PER_ROW)));
  }
  await announceChanges(db, DOCUMENT_CHANGES, keys, at);
}

/**
 * Runs `write` — statements that commit on their own, or several transactions — announcing
 * `tags` to this process's listeners before it starts and to the feed once it is done, so no
 * reader here is served what it replaced meanwhile. A write that fails leaves its tags pending
 * here for a minute at most (renderings of them are read afresh meanwhile).
 */
export async function withDocumentChanges<T>(
  db: Db,
  tags: readonly string[],
  at: number,
  write: () => Promise<T>,
): Promise<T> {
  tellLocalListeners(tags);
  const result = await write();
  await announceDocumentChanges(db, tags, at);
  return result;
}

/** The tags a stored match changes: each player's documents and each name's lookups. */
export function sightingTags(
  players: readonly { platform: string; accountId: string; name: string }[],
): string[] {
  const tags: string[] = [];
  for (const player of players) {
    tags.push(playerTag(player.platform, player.accountId), nameTag(player.platform, player.name));
  }
  return tags;
}

function tellLocalListeners(tags: readonly string[]): void {
  for (const listener of localListeners) listener(tags);
}

/**
 * The tags of feed rows of DOCUMENT_CHANGES; null when a row is not a list of tags (written by
 * something else), which readers must take as "anything may have changed".
 */
export function documentTagsOf(keys: readonly string[]): string[] | null {
  const tags: string[] = [];
  for (const key of keys) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(key);
    } catch {
      return null;
    }
    if (!Array.isArray(parsed)) return null;
    for (const tag of parsed) tags.push(String(tag));
  }
  return tags;
}
