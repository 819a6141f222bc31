/**
 * Writes `schemas/match-input.schema.json`, the ingest format as a JSON Schema (draft 2020-12),
 * from the TypeBox schema that also validates ingest. Run with `npm run schema` after changing
 * src/ingest/match-input.ts; the output is formatted as Prettier would, so it passes format checks.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { MatchInput } from '../src/ingest/match-input.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(root, 'schemas', 'match-input.schema.json');

// JSON.stringify drops TypeBox's symbol-keyed metadata, leaving plain JSON Schema.
const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...MatchInput };
const options = (await prettier.resolveConfig(target)) ?? {};
const text = await prettier.format(JSON.stringify(schema), { ...options, filepath: target });
await fs.mkdir(path.dirname(target), { recursive: true });
await fs.writeFile(target, text);
console.log(`wrote ${path.relative(root, target)}`);
