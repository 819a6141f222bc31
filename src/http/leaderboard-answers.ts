/**
 * The leaderboard pages answered so far, by request URL, for the fast path (src/http/fast-path.ts):
 * once the route has answered a URL with a page of a build, later plain GETs of the same URL are
 * answered from the same bytes — while that build is still the one the route would read (no
 * rebuild heard of, not expired) and the season list that named the season is still trusted.
 * Anything else (a rebuild, a new season, an unbuilt leaderboard, a mirror) goes to the route.
 */
import { DocumentCache } from './document-cache.ts';
import type { FastSource } from './fast-path.ts';
import { KeptHeaderLists } from './kept-header-lists.ts';
import type { BuildToken, LeaderboardPages, RenderedPage } from './leaderboard-pages.ts';

/**
 * Bytes of URLs (and their per-entry overhead) remembered, about 4,000 of them: the pages
 * themselves are held by their builds, so this bounds only what odd spellings of a URL can add.
 */
const MAX_URL_BYTES = 1024 * 1024;

/** What the route answered a URL with, and until when it stands. */
export interface PageAnswer {
  /** The route template (the access line's and the metrics' route label). */
  route: string;
  page: RenderedPage;
  /** The build the page is of (`LeaderboardPages.isCurrent`). */
  build: BuildToken;
  /** Epoch ms until which clients may cache it (the build's `validUntil`). */
  clientFreshUntil: number;
  /** Epoch ms span in which the season list that named its season is trusted. */
  seasonsFrom: number;
  seasonsUntil: number;
}

interface Remembered extends PageAnswer {
  /** Cache-Control value, valid while `now` is in (cacheControlAfter, cacheControlUntil]. */
  cacheControl: string;
  cacheControlAfter: number;
  cacheControlUntil: number;
  /** The fast path's header lists of this answer. */
  lists: KeptHeaderLists<Remembered>;
}

export interface LeaderboardAnswers {
  /** Remembers the 200 answer of `url` (given without a mirror, of a built leaderboard). */
  remember(url: string, answer: PageAnswer): void;
  source: FastSource;
}

/** `public, max-age=<whole seconds left>` at `now`, as the route sends it; kept per second. */
function cacheControlOf(entry: Remembered, now: number): string {
  if (now > entry.cacheControlUntil || now <= entry.cacheControlAfter) {
    const maxAge = Math.max(0, Math.floor((entry.clientFreshUntil - now) / 1000));
    entry.cacheControl = `public, max-age=${maxAge}`;
    // The same number of whole seconds is left until `until`, inclusive (or for ever at 0).
    entry.cacheControlUntil = maxAge === 0 ? Infinity : entry.clientFreshUntil - maxAge * 1000;
    entry.cacheControlAfter = entry.cacheControlUntil - 1000;
  }
  return entry.cacheControl;
}

/** The headers of `entry`'s page as the route sends them. */
function pageHeaderList(
  entry: Remembered,
  gzip: boolean,
  cacheControl: string | null,
  type: string,
): string[] {
  const { page } = entry;
  const list = ['cache-control', cacheControl!, 'etag', gzip ? page.etagGzip : page.etag];
  list.push('vary', 'Accept-Encoding', 'content-type', type);
  if (gzip) list.push('content-encoding', 'gzip');
  return list;
}

export function leaderboardAnswers(pages: Pick<LeaderboardPages, 'isCurrent'>): LeaderboardAnswers {
  const cache = new DocumentCache<Remembered>(MAX_URL_BYTES);

  const source: FastSource = ({ url, gzip, type, now, identityAsked }) => {
    // As the keyed documents: a coding other than gzip or none is left to full negotiation.
    if (!(gzip || identityAsked)) return null;
    const entry = cache.get(url);
    if (entry === undefined) return null;
    if (
      now < entry.seasonsFrom ||
      now >= entry.seasonsUntil ||
      !pages.isCurrent(entry.build, now)
    ) {
      cache.delete(url);
      return null;
    }
    const { page } = entry;
    const headers = entry.lists.get(entry, gzip, cacheControlOf(entry, now), type);
    return { route: entry.route, keyed: true, headers, body: gzip ? page.bodyGzip : page.body };
  };

  return {
    remember(url, answer) {
      const entry = {
        ...answer,
        cacheControl: '',
        cacheControlAfter: 0,
        cacheControlUntil: -1,
        lists: new KeptHeaderLists(pageHeaderList),
      };
      cache.set(url, entry, 0);
    },
    source,
  };
}
