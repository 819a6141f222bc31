/**
 * Multi-row statements without their build cost: the SQL text of a multi-row insert depends
 * only on the dialect and the number of rows, so it is built with Kysely once per shape and then
 * reused with new parameters. Rows go in chunks of power-of-two sizes, so that a few shapes per
 * statement serve every row count and each is built and prepared once: a shape per count would
 * make almost every match of a new ingest build and prepare its statements anew, which costs
 * more than running them.
 */
import { CompiledQuery, type Compilable } from 'kysely';
import type { Db } from './store.ts';

/**
 * Bound parameters per statement: SQLite allows 32,766 and PostgreSQL 65,535; staying well
 * below both keeps one code path.
 */
const MAX_BOUND_PARAMETERS = 30_000;

/**
 * Runs a multi-row statement over `rows`, in chunks under the bound-parameter limit. Building
 * and compiling a Kysely query of thousands of values costs more than running it, and its SQL
 * text depends only on the dialect and the row count, so the text is built once per shape and
 * reused with the rows' values as parameters. Every row must have the same keys in the same
 * order; a shape whose parameters do not follow that order is never cached. (Kysely plugins that
 * rewrite queries do not see cached statements; the store uses none.)
 */
export async function executeBatched<R extends object, O = unknown>(
  db: Db,
  dialect: string,
  name: string,
  rows: readonly R[],
  build: (chunk: R[]) => Compilable<O>,
): Promise<O[]> {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]!) as (keyof R)[];
  const largest = largestPowerOfTwo(Math.max(1, Math.floor(MAX_BOUND_PARAMETERS / columns.length)));
  const results: O[] = [];
  for (let start = 0; start < rows.length;) {
    const chunk = rows.slice(
      start,
      start + Math.min(largest, largestPowerOfTwo(rows.length - start)),
    );
    start += chunk.length;
    const key = `${dialect}:${name}:${chunk.length}`;
    const parameters: unknown[] = new Array(chunk.length * columns.length);
    let i = 0;
    for (const row of chunk) for (const column of columns) parameters[i++] = row[column];
    let text = statementTexts.get(key);
    let values = parameters;
    if (text === undefined) {
      const compiled = build(chunk).compile();
      text = compiled.sql;
      const ordered =
        compiled.parameters.length === parameters.length &&
        compiled.parameters.every((value, index) => value === parameters[index]);
      if (ordered) rememberStatement(key, text);
      else values = [...compiled.parameters];
    }
    const result = await db.executeQuery<O>(CompiledQuery.raw(text, values));
    results.push(...result.rows);
  }
  return results;
}

/** The largest power of two not above `n` (n ≥ 1). */
function largestPowerOfTwo(n: number): number {
  return 2 ** Math.floor(Math.log2(n));
}

/** SQL texts of batched statements by dialect, statement and row count; the oldest go first. */
const statementTexts = new Map<string, string>();
const MAX_STATEMENT_TEXTS = 256;

function rememberStatement(key: string, text: string): void {
  if (statementTexts.size >= MAX_STATEMENT_TEXTS) {
    statementTexts.delete(statementTexts.keys().next().value!);
  }
  statementTexts.set(key, text);
}
