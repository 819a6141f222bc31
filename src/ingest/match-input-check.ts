/**
 * The ingest format's schema check, compiled once by TypeBox, and the same check as JavaScript
 * source for the prepare workers: a worker compiles that text instead of loading TypeBox, whose
 * import costs a new thread about 0.1 CPU s from the build and 0.7 s from the TypeScript sources.
 */
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { IngestError } from './ingest-error.ts';
import { MatchInput } from './match-input.ts';

/** A check that accepts exactly the inputs the ingest schema accepts. */
export type MatchInputCheck = (input: unknown) => input is MatchInput;

const checker = TypeCompiler.Compile(MatchInput);

/** Throws IngestError naming the first field that breaks the schema (the path without its `/`). */
export function assertMatchInputSchema(input: unknown): asserts input is MatchInput {
  if (checker.Check(input)) return;
  const error = checker.Errors(input).First();
  throw new IngestError(error?.path.slice(1) ?? '', error?.message ?? 'invalid match');
}

/**
 * The compiled check's JavaScript (a function body of `kind`, `format` and `hash`, the registry
 * hooks of custom types and formats; the ingest schema uses none), for compileMatchInputCheck.
 */
export function matchInputCheckCode(): string {
  return checker.Code();
}
