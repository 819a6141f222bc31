/**
 * Which renderings of keyed documents are still current (src/http/keyed-documents.ts): a
 * generation counter, the generation at which each tag last changed, and the tags this process
 * announced that the change feed has not delivered back yet ("pending").
 *
 * A rendering records the generation when it began to read. It is current while none of its
 * tags changed since — a write that raced its reads makes it stale — and while none is pending:
 * a writer of this process announces its tags before it commits, and until the feed delivers the
 * committed announcement its documents are read from the store on every request.
 */
import type { Clock } from '../clock.ts';
import type { ChangeFeed } from '../store/change-feed.ts';
import {
  ANNOUNCED_PENDING_MS,
  DOCUMENT_CHANGES,
  documentTagsOf,
  watchLocalDocumentChanges,
} from '../store/document-changes.ts';

/** Tags remembered with their generation before all are forgotten (and every rendering with them). */
const MAX_TAGS = 200_000;

export interface DocumentGenerations {
  /** The generation now: what a rendering that begins to read records. */
  current(): number;
  /** True while nothing tagged with `tags` changed since `generation` and none is pending. */
  isCurrent(generation: number, tags: readonly string[], now: number): boolean;
  /** Calls `listener` whenever `tag` changes (or everything does). */
  watch(tag: string, listener: () => void): void;
  /** Stops listening to this process's writers and to the change feed (the app closes). */
  stop(): void;
}

export function documentGenerations(clock: Clock, changes: ChangeFeed): DocumentGenerations {
  let generation = 0;
  /** Renderings that began before it are stale (everything changed, or tags were forgotten). */
  let floor = 0;
  const tagGenerations = new Map<string, number>();
  /** Tags announced by this process and not yet delivered by the feed, with when they lapse. */
  const pending = new Map<string, number>();
  const watchers = new Map<string, Array<() => void>>();

  function invalidate(tags: readonly string[] | 'all'): void {
    generation++;
    for (const [tag, listeners] of watchers) {
      if (tags === 'all' || tags.includes(tag)) for (const listener of listeners) listener();
    }
    if (tags === 'all' || tagGenerations.size + tags.length > MAX_TAGS) {
      tagGenerations.clear();
      floor = generation;
      return;
    }
    for (const tag of tags) tagGenerations.set(tag, generation);
  }

  const unwatchLocal = watchLocalDocumentChanges((tags) => {
    const until = clock.now() + ANNOUNCED_PENDING_MS;
    for (const tag of tags) pending.set(tag, until);
    invalidate(tags);
  });
  const unsubscribe = changes.subscribe(DOCUMENT_CHANGES, (keys) => {
    const tags = keys === 'all' ? null : documentTagsOf(keys);
    if (tags === null) return invalidate('all');
    for (const tag of tags) pending.delete(tag);
    invalidate(tags);
  });

  function isPending(tag: string, now: number): boolean {
    const until = pending.get(tag);
    if (until === undefined) return false;
    if (until > now) return true;
    pending.delete(tag);
    return false;
  }

  return {
    current: () => generation,
    isCurrent(started, tags, now) {
      if (started < floor) return false;
      for (const tag of tags) {
        if ((tagGenerations.get(tag) ?? 0) > started) return false;
        if (pending.size > 0 && isPending(tag, now)) return false;
      }
      return true;
    },
    watch(tag, listener) {
      const listeners = watchers.get(tag);
      if (listeners) listeners.push(listener);
      else watchers.set(tag, [listener]);
    },
    stop() {
      unwatchLocal();
      unsubscribe();
    },
  };
}
