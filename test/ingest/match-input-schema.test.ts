import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { MatchInput } from '../../src/ingest/match-input.ts';

const read = (file: string): unknown =>
  JSON.parse(fs.readFileSync(new URL(`../../schemas/${file}`, import.meta.url), 'utf8'));

test('schemas/match-input.schema.json is the current ingest schema (run `npm run schema`)', () => {
  const exported = read('match-input.schema.json') as Record<string, unknown>;
  assert.equal(exported.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.deepEqual(exported, {
    $schema: exported.$schema,
    ...(JSON.parse(JSON.stringify(MatchInput)) as object),
  });
});
