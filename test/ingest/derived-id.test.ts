import { test } from 'node:test';
import assert from 'node:assert/strict';
import { v5 as uuidV5 } from 'uuid';
import { derivedId } from '../../src/ingest/validate-match.ts';

/** The namespace ingest has always derived roster and participant ids in. */
const ID_NAMESPACE = '0b6f0c52-3b1e-4d55-9a53-8f2e7c1d4a90';

test('derived ids are the v5 UUIDs uuid makes, so matches stored earlier keep their ids', () => {
  const matchId = '7b350a6e-d8d6-4013-b6c6-a424c151a3f0';
  const names = [
    `${matchId}:roster:0`,
    ...Array.from({ length: 200 }, (_, i) => `${matchId}:participant:${i % 25}:${i}`),
    '',
    'é and 🙂 beyond ASCII',
  ];
  for (const name of names) assert.equal(derivedId(name), uuidV5(name, ID_NAMESPACE), name);
});
