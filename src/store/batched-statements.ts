/**
 * Multi-row statements without their build cost: the SQL text of a multi-row insert depends
 * only on the dialect and the number of rows, so Kysely builds each statement once, for one row,
 * and the text for any number of rows is that one's with its VALUES tuple repeated. Rows go in
 * chunks of power-of-two sizes, so that a few shapes per statement serve every row count and
 * each is prepared once: a shape per count would make almost every match of a new ingest
 * prepare its statements anew, which costs more than running them.
 */
import { CompiledQuery, type Compilable } from 'kysely';
import type { Db } from './store.ts';
import { yieldBetweenStatements } from './sqlite/lock-wait.ts';

/**
 * Bound parameters per statement: SQLite allows 32,766 and PostgreSQL 65,535; staying well
 * below both keeps one code path.
 */
const MAX_BOUND_PARAMETERS = 30_000;

/**
 * Runs a multi-row statement over `rows`, in chunks under the bound-parameter limit. Building
 * and compiling a Kysely query of thousands of values costs more than running it, so the text
 * is built once per statement (see statementText) and reused with the rows' values as
 * parameters; on SQLite the thread serves what it was asked between chunks (see
 * yieldBetweenStatements). Every row must have the same keys in the same order; a statement
 * whose parameters do not follow that order is built by Kysely for every chunk. (Kysely plugins that rewrite
 * queries do not see these statements; the store uses none.)
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
    const size = Math.min(largest, largestPowerOfTwo(rows.length - start));
    const parameters: unknown[] = new Array(size * columns.length);
    let i = 0;
    for (let row = start; row < start + size; row++) {
      for (const column of columns) parameters[i++] = rows[row]![column];
    }
    const chunk = (): R[] => rows.slice(start, start + size);
    const text = statementText(dialect, name, size, columns, rows[start]!, build);
    const query = text === null ? build(chunk()).compile() : CompiledQuery.raw(text, parameters);
    start += size;
    const result = await db.executeQuery<O>(query);
    for (const row of result.rows) results.push(row);
    await yieldBetweenStatements(dialect);
  }
  return results;
}

/** The largest power of two not above `n` (n ≥ 1). */
function largestPowerOfTwo(n: number): number {
  return 2 ** Math.floor(Math.log2(n));
}

/**
 * A statement as Kysely compiles it for one row, split around that row's VALUES tuple; null when
 * its text cannot be told from that (parameters outside the tuple, or in another order than the
 * row's keys).
 */
interface Template {
  head: string;
  tail: string;
  numbered: boolean;
}

/** Templates by dialect and statement; null for a statement that Kysely builds every time. */
const templates = new Map<string, Template | null>();
/** SQL texts by dialect, statement and row count; the oldest go first. */
const statementTexts = new Map<string, string>();
const MAX_STATEMENT_TEXTS = 256;

/**
 * The text of statement `name` for `size` rows, or null when Kysely has to build it for the
 * rows themselves. The one-row build is checked against Kysely's own two-row text, so that a
 * text made here is always the one Kysely would make.
 */
function statementText<R extends object, O>(
  dialect: string,
  name: string,
  size: number,
  columns: readonly (keyof R)[],
  row: R,
  build: (chunk: R[]) => Compilable<O>,
): string | null {
  const key = `${dialect}:${name}`;
  let template = templates.get(key);
  if (template === undefined) {
    template = templateOf(dialect === 'postgres', columns, row, build);
    templates.set(key, template);
  }
  if (template === null) return null;
  const textKey = `${key}:${size}`;
  let text = statementTexts.get(textKey);
  if (text === undefined) {
    text = render(template, size, columns.length);
    if (statementTexts.size >= MAX_STATEMENT_TEXTS) {
      statementTexts.delete(statementTexts.keys().next().value!);
    }
    statementTexts.set(textKey, text);
  }
  return text;
}

function templateOf<R extends object, O>(
  numbered: boolean,
  columns: readonly (keyof R)[],
  row: R,
  build: (chunk: R[]) => Compilable<O>,
): Template | null {
  const one = build([row]).compile();
  const ordered =
    one.parameters.length === columns.length &&
    columns.every((column, index) => one.parameters[index] === row[column]);
  const marker = `values ${tuple(numbered, 0, columns.length)}`;
  const at = one.sql.indexOf(marker);
  if (!ordered || at === -1 || one.sql.indexOf(marker, at + 1) !== -1) return null;
  const template = {
    head: one.sql.slice(0, at + 'values '.length),
    tail: one.sql.slice(at + marker.length),
    numbered,
  };
  const two = build([row, row]).compile().sql;
  return render(template, 2, columns.length) === two ? template : null;
}

/** The statement's text for `rows` rows of `width` values each. */
function render(template: Template, rows: number, width: number): string {
  const tuples = new Array<string>(rows);
  for (let i = 0; i < rows; i++) tuples[i] = tuple(template.numbered, i * width, width);
  return template.head + tuples.join(', ') + template.tail;
}

/** One row's placeholders: `(?, ?)`, or `($3, $4)` numbered from `before + 1`. */
function tuple(numbered: boolean, before: number, width: number): string {
  const marks = new Array<string>(width);
  for (let i = 0; i < width; i++) marks[i] = numbered ? `$${before + i + 1}` : '?';
  return `(${marks.join(', ')})`;
}
