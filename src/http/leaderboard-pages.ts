/**
 * The rendered pages of the current leaderboard builds, kept in this process as bytes (DESIGN
 * §6): a page is rendered and gzipped once per build and variant, then served without a query.
 * Which build is current is read once per build: a rebuild announces the leaderboard's change
 * tag (`leaderboardTag`) with its commit, and hearing it — from a writer of this thread at once,
 * from the job thread or another instance at the change feed's next poll — drops the known
 * build, so the next request reads the new one. Pages are held by their build and dropped with it.
 */
import crypto from 'node:crypto';
import { v5 as uuidV5 } from 'uuid';
import type { Clock } from '../clock.ts';
import { renderLeaderboard } from '../presenters/leaderboard-document.ts';
import {
  findLeaderboard,
  listLeaderboardEntries,
  type EntrySelection,
  type LeaderboardBuild,
  leaderboardTag,
  type LeaderboardKey,
} from '../store/leaderboards.ts';
import { DOCUMENT_KINDS } from '../store/document-changes.ts';
import type { Store } from '../store/store.ts';
import { gzipDocument, gzipEtag } from './precompressed.ts';

/**
 * How long a lookup that found no current build (the job has not built this season yet, or its
 * next run is overdue) is trusted, in ms: the build is looked up again after it, and clients
 * may cache the answer that long.
 */
const RECHECK_MS = 10_000;

/** Namespace of the stand-in ids of leaderboards not built yet (a fixed random UUID). */
const PENDING_ID_NAMESPACE = '8f0b7c52-3e61-4c1e-9a57-2f4d8f6b1e09';

/** Lookups of a page before giving up, when rebuilds keep replacing the build meanwhile. */
const MAX_ATTEMPTS = 3;

/** A page rendered once, as served: identity and gzip bytes with their entity tags. */
export interface RenderedPage {
  body: Buffer;
  bodyGzip: Buffer;
  etag: string;
  etagGzip: string;
}

/** What one request asks for, once its path and query are validated. */
export interface PageRequest {
  key: LeaderboardKey;
  /** The page's key among its build's pages: everything its bytes depend on but the build. */
  variant: string;
  selection: EntrySelection;
  shardId: string;
  selfUrl: string;
}

/** The current build of one leaderboard as this process knows it, with its pages so far. */
interface KnownBuild {
  key: LeaderboardKey;
  /** Its key in `known`: platform and game mode. */
  slot: string;
  /** Null before the first build of the season: every page is then empty. */
  build: LeaderboardBuild | null;
  /**
   * Epoch ms until which answers may be cached and the build is not read again: the build's
   * expiry, or a few seconds (no build; or a rebuild was heard while it was being read).
   */
  validUntil: number;
  pages: Map<string, Promise<RenderedPage | null>>;
}

/** Which build a page was read from, for `isCurrent`; nothing else is to be read from it. */
export type BuildToken = object & { readonly brand?: 'leaderboard build' };

export interface LeaderboardPages {
  /**
   * The page of the current build, and until when (epoch ms) clients may cache it: the build's
   * expiry, or a few seconds when no build is current.
   */
  get(
    page: PageRequest,
  ): Promise<{ page: RenderedPage; validUntil: number; built: boolean; build: BuildToken }>;
  /**
   * Whether `get` would still answer from the build it answered from (`build`), without a
   * query: nothing was heard of a rebuild and the build has not expired at `now` (epoch ms).
   */
  isCurrent(build: BuildToken, now: number): boolean;
  /** Forgets that a leaderboard had no build, so the next request looks again (a job just ran). */
  forgetMissing(): void;
}

/** Calls `listener` whenever documents tagged `tag` change (the keyed documents' `watch`). */
export type WatchTag = (tag: string, listener: () => void) => void;

export function leaderboardPages(store: Store, clock: Clock, watch: WatchTag): LeaderboardPages {
  // Keyed by platform and mode: a new season's build replaces the last season's pages.
  const known = new Map<string, KnownBuild>();
  const lookups = new Map<string, Promise<KnownBuild>>();
  /** Changes heard per slot: a lookup that began before one may have read the replaced build. */
  const heard = new Map<string, number>();

  const forget = (slot: string): void => {
    heard.set(slot, (heard.get(slot) ?? 0) + 1);
    known.delete(slot);
    lookups.delete(slot);
  };
  watch(DOCUMENT_KINDS.leaderboards, () => {
    for (const slot of new Set([...known.keys(), ...lookups.keys()])) forget(slot);
  });

  /** The known build until it expires or a rebuild is heard of (no query), else one read. */
  function currentBuild(key: LeaderboardKey, recheck: boolean): KnownBuild | Promise<KnownBuild> {
    const now = clock.now();
    const slot = `${key.platform}\u0000${key.gameMode}`;
    const previous = known.get(slot);
    const sameSeason = previous !== undefined && previous.key.seasonId === key.seasonId;
    if (sameSeason && !recheck && now < previous.validUntil) return previous;
    let pending = lookups.get(slot);
    if (pending === undefined) {
      if (!heard.has(slot)) {
        heard.set(slot, 0);
        watch(leaderboardTag(key.platform, key.gameMode), () => forget(slot));
      }
      const before = heard.get(slot);
      const lookup: Promise<KnownBuild> = findLeaderboard(store.db, key).then((build) => {
        const current = build !== null && build.expiresAt > now;
        // The same build again (its rebuild is overdue, or a change was heard): keep its pages.
        const same = sameSeason && previous.build?.id === build?.id;
        // A rebuild heard of meanwhile may have committed after this read: read again next time.
        const raced = heard.get(slot) !== before;
        const next: KnownBuild = {
          key,
          slot,
          build,
          validUntil: current && !raced ? build.expiresAt : now + RECHECK_MS,
          pages: same ? previous.pages : new Map(),
        };
        if (!raced) known.set(slot, next);
        return next;
      });
      const settled = (): void => {
        if (lookups.get(slot) === lookup) lookups.delete(slot);
      };
      lookup.then(settled, settled);
      lookups.set(slot, lookup);
      pending = lookup;
    }
    return pending;
  }

  /** Renders a page of a build; null when the build was replaced since it was looked up. */
  async function render(target: KnownBuild, request: PageRequest): Promise<RenderedPage | null> {
    const { key, build } = target;
    const entries = build
      ? await listLeaderboardEntries(store.db, key, build.id, request.selection)
      : [];
    if (entries === null) return null;
    const id =
      build?.id ?? uuidV5(`${key.platform}/${key.seasonId}/${key.gameMode}`, PENDING_ID_NAMESPACE);
    const body = Buffer.from(
      renderLeaderboard({
        id,
        shardId: request.shardId,
        gameMode: key.gameMode,
        seasonId: key.seasonId,
        entries,
        selfUrl: request.selfUrl,
      }),
    );
    const etag = `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    return { body, bodyGzip: await gzipDocument(body), etag, etagGzip: gzipEtag(etag) };
  }

  return {
    async get(request) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const build = await currentBuild(request.key, attempt > 0);
        let rendering = build.pages.get(request.variant);
        if (rendering === undefined) {
          rendering = render(build, request);
          build.pages.set(request.variant, rendering);
          // A failed or stale rendering is forgotten, so the next request tries again.
          rendering.then(
            (page) => page === null && build.pages.delete(request.variant),
            () => build.pages.delete(request.variant),
          );
        }
        const page = await rendering;
        if (page !== null) {
          return { page, validUntil: build.validUntil, built: build.build !== null, build };
        }
      }
      throw new Error(
        `leaderboard ${request.key.gameMode} was rebuilt ${MAX_ATTEMPTS} times while being read`,
      );
    },
    isCurrent(token, now) {
      const build = token as KnownBuild;
      return now < build.validUntil && known.get(build.slot) === build;
    },
    forgetMissing() {
      for (const [slot, entry] of known) if (entry.build === null) known.delete(slot);
    },
  };
}
