/**
 * Writes the ingest formats as JSON Schemas (draft 2020-12) into `schemas/`, from the TypeBox
 * schemas that also validate ingest: `match-input.schema.json`, `clan-input.schema.json` and
 * `player-status-input.schema.json`. Run with `npm run schema` after changing
 * src/ingest/match-input.ts or src/ingest/clan-input.ts; the output is formatted as Prettier
 * would, so it passes format checks.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import type { TSchema } from '@sinclair/typebox';
import { MatchInput } from '../src/ingest/match-input.ts';
import { ClanInput, PlayerStatusInput } from '../src/ingest/clan-input.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCHEMAS: Array<[string, TSchema]> = [
  ['match-input.schema.json', MatchInput],
  ['clan-input.schema.json', ClanInput],
  ['player-status-input.schema.json', PlayerStatusInput],
];

for (const [file, typebox] of SCHEMAS) {
  const target = path.join(root, 'schemas', file);
  // JSON.stringify drops TypeBox's symbol-keyed metadata, leaving plain JSON Schema.
  const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...typebox };
  const options = (await prettier.resolveConfig(target)) ?? {};
  const text = await prettier.format(JSON.stringify(schema), { ...options, filepath: target });
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.writeFile(target, text);
  console.log(`wrote ${path.relative(root, target)}`);
}
