/**
 * Decimal text of a number that differs on every answer (a key's remaining budget) without
 * V8's number-string cache. `String(n)` (a template, `+ ''`, or Node turning a header value into
 * text) keeps the text of the last few thousand numbers it converted in a table in the old
 * generation; a text held there outlives two young collections and is copied into the old
 * generation, so a number that is new on every answer promoted about 32 bytes an answer —
 * 15 times what the rest of a cached keyed answer promotes — and the old generation filled
 * that much sooner: a full collection every few seconds under load, whose pauses set the
 * p99 of the keyed rows (README "Performance").
 */

/** '000' to '999': the groups of three digits after the first. */
const GROUPS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

/**
 * `String(n)` for a non-negative safe integer, made of a cached text of `n / 1000` (which
 * changes a thousand times less often) and a constant group of three digits; anything else
 * is converted by `String` as usual.
 */
export function decimalText(n: number): string {
  if (n < 1000 || !Number.isSafeInteger(n)) return String(n);
  const high = Math.floor(n / 1000);
  return `${decimalText(high)}${GROUPS[n - high * 1000]!}`;
}
