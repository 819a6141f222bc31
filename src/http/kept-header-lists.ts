/**
 * The header lists a fast-path source keeps for one cached answer (FastAnswer's `headers`): one
 * per encoding, handed out while the values they were made with — its Cache-Control, which
 * counts down a second at a time, and the negotiated Content-Type — stay the same, and made
 * again once either changes. The fast path's sender keeps the whole list it makes of each list,
 * so a source that handed out a new array per request would have it rebuilt per request.
 */

/** Makes the route's header list of `of` with these values, for gzip or identity. */
export type MakeHeaderList<T> = (
  of: T,
  gzip: boolean,
  cacheControl: string | null,
  type: string,
) => string[];

export class KeptHeaderLists<T> {
  private cacheControl: string | null = null;
  private type = '';
  private identity: string[] | null = null;
  private gzip: string[] | null = null;

  /** `make` is called once per encoding and set of values (a module-level function: no closure per request). */
  constructor(private readonly make: MakeHeaderList<T>) {}

  /** The list of `of` with `cacheControl` and `type`, gzip-encoded or not. */
  get(of: T, gzip: boolean, cacheControl: string | null, type: string): string[] {
    if (cacheControl !== this.cacheControl || type !== this.type) {
      this.cacheControl = cacheControl;
      this.type = type;
      this.identity = null;
      this.gzip = null;
    }
    if (gzip) return (this.gzip ??= this.make(of, true, cacheControl, type));
    return (this.identity ??= this.make(of, false, cacheControl, type));
  }
}
