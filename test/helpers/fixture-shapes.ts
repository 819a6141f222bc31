/**
 * Shape comparison against the recorded responses of the real service, when they are available
 * (`../shared/reference/fixtures` beside the checkout, or FIXTURES_DIR). Shapes are key sets and
 * JSON value types, never values: recorded documents are other players' data.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const FIXTURES_DIR =
  process.env.FIXTURES_DIR ?? path.resolve(repoRoot, '../shared/reference/fixtures');

/** Whether the recorded responses are present; shape tests are skipped without them. */
export const HAVE_FIXTURES = fs.existsSync(FIXTURES_DIR);

/** A recorded response, parsed; `file` is relative to the fixtures folder. */
export function loadFixture(file: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, file), 'utf8'));
}

type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as JsonType;
}

export interface ShapeDifferences {
  /** Paths (`data.attributes.banType`, `data[].id`) our documents have and the recording lacks. */
  extra?: readonly string[];
  /** Paths the recording has and our documents deliberately leave out (deprecated fields). */
  missing?: readonly string[];
}

/**
 * Asserts that `actual` has the shape of `recorded`: the same keys at every level (but for the
 * declared differences) and the same JSON type for every value. Arrays compare their first
 * elements when both have one. Object keys may come in any order, as in the real service.
 */
export function assertSameShape(
  actual: unknown,
  recorded: unknown,
  differences: ShapeDifferences = {},
  at = '',
): void {
  const where = at || '(root)';
  assert.equal(jsonType(actual), jsonType(recorded), `type of ${where}`);
  if (Array.isArray(actual) && Array.isArray(recorded)) {
    if (actual.length > 0 && recorded.length > 0) {
      assertSameShape(actual[0], recorded[0], differences, `${at}[]`);
    }
    return;
  }
  if (jsonType(actual) !== 'object') return;
  const ours = actual as Record<string, unknown>;
  const theirs = recorded as Record<string, unknown>;
  const child = (key: string): string => (at ? `${at}.${key}` : key);
  const expectedKeys = Object.keys(theirs)
    .filter((key) => !differences.missing?.includes(child(key)))
    .concat(
      (differences.extra ?? [])
        .filter((p) => isChildPath(p, at))
        .map((p) => p.slice(prefixLength(at))),
    )
    .sort();
  assert.deepEqual(Object.keys(ours).sort(), expectedKeys, `keys of ${where}`);
  for (const key of Object.keys(ours)) {
    if (Object.hasOwn(theirs, key))
      assertSameShape(ours[key], theirs[key], differences, child(key));
  }
}

const prefixLength = (at: string): number => (at ? at.length + 1 : 0);

function isChildPath(candidate: string, at: string): boolean {
  if (at && !candidate.startsWith(`${at}.`)) return false;
  const rest = candidate.slice(prefixLength(at));
  return rest.length > 0 && !rest.includes('.') && !rest.includes('[');
}
