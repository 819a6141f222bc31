import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileMatchInputCheck } from '../../src/ingest/compile-match-input-check.ts';
import { IngestError } from '../../src/ingest/ingest-error.ts';
import { ingestPath } from '../../src/ingest/ingest-source.ts';
import { assertMatchInputSchema, matchInputCheckCode } from '../../src/ingest/match-input-check.ts';
import { openPreparePool } from '../../src/ingest/prepare-pool.ts';
import { openIngestContext } from '../helpers/ingest-deps.ts';
import { makeMatchInput, sampleTelemetry } from '../helpers/matches.ts';
import { testDatabases } from '../helpers/stores.ts';

/** Whether TypeBox's own check takes the input. */
function typeboxTakes(input: unknown): boolean {
  try {
    assertMatchInputSchema(input);
    return true;
  } catch (error) {
    assert.ok(error instanceof IngestError);
    return false;
  }
}

test('the check a worker compiles from source takes exactly what TypeBox takes', () => {
  const check = compileMatchInputCheck(matchInputCheckCode());
  const valid = makeMatchInput({ seed: 'check-valid', rosters: 3 });
  const withTelemetry = {
    ...valid,
    telemetry: sampleTelemetry(valid.id, Date.parse(valid.createdAt)),
  };
  const inputs: unknown[] = [
    valid,
    withTelemetry,
    makeMatchInput({ seed: 'check-kills', stats: () => ({ kills: -1 }) }),
    { ...valid, id: 'not-a-uuid' },
    { ...valid, createdAt: 'yesterday' },
    { ...valid, rosters: [] },
    { ...valid, telemetry: [{ _T: 1 }] },
    { ...valid, unknownMember: true },
    [],
    null,
    'match',
  ];
  for (const [index, input] of inputs.entries()) {
    assert.equal(check(input), typeboxTakes(input), `input ${index}`);
  }
  assert.ok(check(valid) && check(withTelemetry));
});

for (const database of testDatabases) {
  test(`[${database.name}] a match breaking the schema in a pooled directory is refused with its field named`, async () => {
    const ctx = await openIngestContext(database);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-worker-check-'));
    const pool = openPreparePool(1, ctx.deps.config);
    try {
      const good = makeMatchInput({ seed: 'check-dir-good' });
      const bad = makeMatchInput({ seed: 'check-dir-bad', stats: () => ({ kills: -1 }) });
      fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify(bad));
      fs.writeFileSync(path.join(dir, 'b.json'), JSON.stringify(good));
      const results = await ingestPath(ctx.deps, dir, { pool });
      assert.deepEqual(
        results.map((r) => [path.basename(r.source), r.status]),
        [
          ['a.json', 'error'],
          ['b.json', 'ingested'],
        ],
      );
      const refused = results[0]!;
      assert.ok(refused.status === 'error');
      assert.match(refused.message, /^rosters\/0\/participants\/0\/stats\/kills: /);
      assert.equal(refused.matchId, bad.id);
    } finally {
      await pool.close();
      await ctx.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
