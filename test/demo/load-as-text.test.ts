import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ingestDemoClans } from '../../src/demo/clans.ts';
import { generateDemo } from '../../src/demo/generate-demo.ts';
import { populateDemo } from '../../src/demo/populate-demo.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { eventsJson } from '../../src/ingest/telemetry-file.ts';
import type { Database } from '../../src/store/schema.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { withDemoDeps } from '../helpers/demo-deps.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');

/** What ingest derives from matches: every row, in a stable order. */
const TABLES: Array<keyof Database> = [
  'players',
  'matches',
  'rosters',
  'participants',
  'player_matches',
  'season_stats',
  'stat_days',
  'tournaments',
  'match_documents',
  'ranked_stats',
  'ranked_results',
  'clans',
  'weapon_mastery',
  'weapon_medals',
  'survival_mastery',
  'mastery_pending_telemetry',
];

async function contents(store: Store): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of TABLES) {
    const rows = await store.db.selectFrom(table).selectAll().execute();
    out[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

function files(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, file), fs.readFileSync(file));
  }
  return out;
}

test('each match telemetry the demo writes as text is the JSON of the events it generates', () => {
  const options = { seed: 9, now: NOW, scale: 0.02 };
  const asText = generateDemo(options).matchesWithText();
  let n = 0;
  for (const input of generateDemo(options).matches()) {
    const { value } = asText.next();
    assert.ok(value);
    const { telemetry, ...rest } = input;
    assert.deepEqual(value.input, rest);
    assert.ok(telemetry && value.telemetry);
    assert.ok(value.telemetry.json.equals(eventsJson(telemetry)), `match ${n}'s file`);
    n++;
  }
  assert.equal(asText.next().done, true);
  assert.ok(n >= 30);
});

test('the demo load stores the same rows and files as ingesting its matches with their events inline', async () => {
  // One database is enough: the two loads differ only in what the demo hands to ingest.
  const load = async (fill: (deps: Parameters<typeof populateDemo>[0]) => Promise<void>) => {
    const store = await openStore('sqlite::memory:');
    return withDemoDeps(store, NOW, async (deps, dir) => {
      await fill(deps);
      return { rows: await contents(store), files: files(dir) };
    });
  };
  const options = { seed: 4, scale: 0.01, now: NOW };
  const demo = await load(async (deps) => {
    await populateDemo(deps, { ...options, progress: false });
  });
  const inline = await load(async (deps) => {
    const plan = generateDemo(options);
    for (const match of plan.matches()) await ingestMatch(deps, match);
    await ingestDemoClans(deps, options.seed, plan.players);
  });
  assert.ok(demo.rows.matches!.length >= 10);
  assert.ok(demo.rows.weapon_mastery!.length > 0);
  assert.deepEqual(demo.rows, inline.rows);
  assert.deepEqual(demo.files, inline.files);
});
