/**
 * Builds the ingest schema check from its JavaScript source (matchInputCheckCode), without
 * TypeBox: what a prepare worker validates with.
 */
import type { MatchInputCheck } from './match-input-check.ts';

/**
 * The check `code` defines. Custom types, formats and hashing are not available here: a schema
 * that came to use them makes the check refuse every input, and a worker then hands each match
 * back to the main thread, which checks with TypeBox itself — slower, never wrong.
 */
export function compileMatchInputCheck(code: string): MatchInputCheck {
  const unavailable = (): boolean => false;
  // The code is TypeBox's own output for the ingest schema, made by the pool's thread.
  const build = new Function('kind', 'format', 'hash', code) as (
    ...hooks: Array<() => boolean>
  ) => MatchInputCheck;
  return build(unavailable, unavailable, unavailable);
}
