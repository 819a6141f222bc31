import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  IngestError,
  MatchNotStoredError,
  TelemetryConflictError,
} from '../../src/ingest/ingest-error.ts';
import { errorOf, toError } from '../../src/ingest/prepare-match.ts';
import { BlobStoreUnavailableError } from '../../src/blobs/blob-store.ts';
import { StoreUnavailableError, isStoreUnavailable } from '../../src/store/store-errors.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { ingestMatchBytes, storePrepared } from '../../src/ingest/ingest-prepared.ts';
import { ingestPath } from '../../src/ingest/ingest-source.ts';
import { openPreparePool } from '../../src/ingest/prepare-pool.ts';
import { inlineTelemetryText, splitTelemetry } from '../../src/ingest/telemetry-text.ts';
import { eventTypes } from '../../src/ingest/telemetry-scan.ts';
import { TALLIED_EVENT_TYPES } from '../../src/ingest/mastery-telemetry.ts';
import { generateDemo, MIN_SCALE } from '../../src/demo/generate-demo.ts';
import type { MatchInput } from '../../src/ingest/match-input.ts';
import { testDatabases } from '../helpers/stores.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { openRuntime } from '../../src/runtime.ts';
import { fixedClock } from '../../src/clock.ts';
import { openIngestContext, TEST_CONFIG, type IngestTestContext } from '../helpers/ingest-deps.ts';
import { TEST_NOW, makeMatchInput, sampleTelemetry } from '../helpers/matches.ts';

/** Every table ingest writes, compared row for row. */
const TABLES = [
  'matches',
  'rosters',
  'participants',
  'players',
  'player_matches',
  'season_stats',
  'stat_days',
  'tournaments',
  'match_documents',
  'ranked_results',
  'ranked_stats',
  'weapon_mastery',
  'weapon_medals',
  'survival_mastery',
  'mastery_pending_telemetry',
] as const;

/**
 * A match as JSON text with its telemetry inline, spelled as JSON.stringify never would
 * (`1.0`, `1E2`, spaces): stored as these bytes or not at all.
 */
function matchText(input: MatchInput): { text: Buffer; telemetry: string } {
  const events = JSON.stringify(sampleTelemetry(input.id, Date.parse(input.createdAt)));
  const telemetry = `[ {"_T":"LogPlayerPosition","_D":"2026-11-20T12:01:00.000Z","x":1.0,"y":1E2},${events.slice(1)}`;
  const head = JSON.stringify(input).slice(0, -1);
  return { text: Buffer.from(`${head}, "telemetry" : ${telemetry}\n}`), telemetry };
}

async function dump(ctx: IngestTestContext): Promise<Record<string, unknown[]>> {
  return dumpOf(ctx.deps.store, ctx.blobDir);
}

/** Every row ingest writes to `store`, and every file under `blobDir`, by path. */
async function dumpOf(store: Store, blobDir: string): Promise<Record<string, unknown[]>> {
  const tables: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    const rows = await store.db.selectFrom(table).selectAll().execute();
    tables[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  const files = (fs.readdirSync(blobDir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(blobDir, path.join(entry.parentPath, entry.name)))
    .sort();
  const blobs = files.map((key) => [key, fs.readFileSync(path.join(blobDir, key))]);
  return { ...tables, blobs };
}

/** matchText with `positions` more position events first: 60 bytes each. */
function paddedMatchText(input: MatchInput, positions: number): Buffer {
  const { text } = matchText(input);
  const padding = Array.from(
    { length: positions },
    (_, i) => `{"_T":"LogPlayerPosition","_D":"2026-11-20T12:01:00.000Z","x":${i}.5,"y":1E2},`,
  ).join('');
  const at = text.indexOf('"telemetry" : [') + '"telemetry" : ['.length;
  return Buffer.concat([text.subarray(0, at), Buffer.from(padding), text.subarray(at)]);
}

/**
 * A SQLite file and blob directory in a new temporary directory, and the service's settings for
 * them: a store other threads and processes open too (an in-memory one they cannot).
 */
function fileStore(prefix: string): { dataDir: string; databaseUrl: string; config: Config } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const databaseUrl = `sqlite:${path.join(dataDir, 'store.sqlite')}`;
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    PUBLIC_BASE_URL: TEST_CONFIG.publicBaseUrl,
    TELEMETRY_BASE_URL: TEST_CONFIG.telemetryBaseUrl,
    LOG_LEVEL: 'silent',
  });
  return { dataDir, databaseUrl, config };
}

test('the inline telemetry text is found as JSON.parse reads the object, or not at all', () => {
  const found = (text: string): string | undefined =>
    inlineTelemetryText(Buffer.from(text))?.toString();
  assert.equal(found('{"a":1,"telemetry":[{"_T":"x\\"]"}],"b":[2]}'), '[{"_T":"x\\"]"}]');
  assert.equal(found('{"telemetry":[1],"x":{"telemetry":[2]},"telemetry":[ 3 ]}'), '[ 3 ]');
  assert.equal(found('{"x":"telemetry","y":[{"telemetry":[9]}]}'), undefined);
  assert.equal(found('{"telemetry":"none"}'), undefined);
  // A key spelled with escapes could be the one JSON.parse keeps: not guessed.
  assert.equal(found('{"telemetry":[1],"tele\\u006detry":[2]}'), undefined);
  assert.equal(found('{"a":"\\\\","telemetry":[1]}'), '[1]');
  // Values skipped whole, brackets and quotes inside their strings included.
  assert.equal(found('{"a":{"b":"]}"},"telemetry":[{"c":"[\\"{"}] ,"d":[]}'), '[{"c":"[\\"{"}]');
  assert.equal(found('{"telemetry":"x","y":[1]}'), undefined);
  // Every bracket counted, nested in either order, and no other byte between strings.
  assert.equal(found('{"telemetry":[[],{"a":[{}]},[[true]]],"b":[]}'), '[[],{"a":[{}]},[[true]]]');
  assert.equal(
    found('{"telemetry":[{"Y":[{"_":[]}],"y":{}},null],"b":{}}'),
    '[{"Y":[{"_":[]}],"y":{}},null]',
  );
  assert.equal(found('{"telemetry":null,"y":[1]}'), undefined);
});

for (const database of testDatabases) {
  const name = (title: string): string => `[${database.name}] ${title}`;

  test(name('matches prepared by worker threads store what ingestMatch stores'), async () => {
    const inline = makeMatchInput({ seed: 'pool-inline', rosters: 3 });
    const bare = makeMatchInput({ seed: 'pool-bare' });
    const withFile = makeMatchInput({ seed: 'pool-file' });
    const { text, telemetry } = matchText(inline);
    const file = zlib.gzipSync(JSON.stringify(sampleTelemetry(withFile.id, Date.now())));
    const bareText = Buffer.from(JSON.stringify(bare));
    const fileText = Buffer.from(JSON.stringify(withFile));

    const local = await openIngestContext(database);
    const pooled = await openIngestContext(database);
    const pool = openPreparePool(2, TEST_CONFIG);
    try {
      await ingestMatch(local.deps, JSON.parse(text.toString()), { source: text });
      await ingestMatch(local.deps, bare);
      await ingestMatch(local.deps, withFile, { telemetry: file });
      // In the same order: the newest match's values win ties of createdAt.
      const results = [
        await ingestMatchBytes(pooled.deps, pool, text),
        await ingestMatchBytes(pooled.deps, pool, bareText),
        await ingestMatchBytes(pooled.deps, pool, fileText, file),
      ];
      assert.deepEqual(
        results.map((r) => [r?.status, r?.telemetry]),
        [
          ['ingested', true],
          ['ingested', false],
          ['ingested', true],
        ],
      );
      assert.deepEqual(await dump(pooled), await dump(local));
      const stored = (await dump(pooled)).blobs!.map((b) => (b as [string, Buffer])[1]);
      const texts = stored.map((gzip) => zlib.gunzipSync(gzip).toString());
      assert.ok(texts.includes(telemetry), 'inline telemetry stored as its text in the input');
      assert.ok(
        stored.some((gzip) => gzip.equals(file)),
        'a gzip file stored as given',
      );

      // Again: nothing changes, and the match stored without telemetry takes it now.
      const again = await ingestMatchBytes(pooled.deps, pool, fileText);
      assert.equal(again?.status, 'unchanged');
      const late = await ingestMatchBytes(pooled.deps, pool, bareText, file);
      assert.equal(late?.status, 'attached');
      // The same telemetry gzipped otherwise: told the same by its text, which a worker does not
      // send back (the main thread gunzips it).
      const otherGzip = zlib.gzipSync(zlib.gunzipSync(file), { level: 1 });
      assert.ok(!otherGzip.equals(file));
      const same = await ingestMatchBytes(pooled.deps, pool, fileText, otherGzip);
      assert.equal(same?.status, 'unchanged');
    } finally {
      await pool.close();
      await local.close();
      await pooled.close();
    }
  });

  test(name('a match refused in a worker is the same ingest error, nothing written'), async () => {
    const ctx = await openIngestContext(database);
    const pool = openPreparePool(1, TEST_CONFIG);
    try {
      const input = makeMatchInput({ seed: 'pool-bad', stats: () => ({ kills: -1 }) });
      const bytes = Buffer.from(JSON.stringify(input));
      const inProcess = await ingestMatch(ctx.deps, input).catch((error: unknown) => error);
      const pooled = await ingestMatchBytes(ctx.deps, pool, bytes).catch((e: unknown) => e);
      assert.ok(pooled instanceof IngestError);
      assert.ok(inProcess instanceof IngestError);
      assert.equal(pooled.field, 'rosters/0/participants/0/stats/kills');
      assert.equal(pooled.message, inProcess.message);
      assert.ok(Object.values(await ctx.rowCounts()).every((n) => n === 0));
      assert.deepEqual(ctx.blobs(), []);
      // Not a match in the ingest format: left to the caller.
      assert.equal(await ingestMatchBytes(ctx.deps, pool, Buffer.from('[]')), null);
      assert.equal(await ingestMatchBytes(ctx.deps, pool, Buffer.from('{"data":{}}')), null);
    } finally {
      await pool.close();
      await ctx.close();
    }
  });
}

test('[sqlite] demo matches ingested from their bytes, only the events the tally reads parsed, store what ingestMatch stores', async () => {
  const plan = generateDemo({ seed: 5, now: TEST_NOW, scale: MIN_SCALE });
  const texts: Buffer[] = [];
  for (const match of plan.matches()) {
    if (match.telemetry === undefined) continue;
    texts.push(Buffer.from(JSON.stringify(match)));
    if (texts.length === 3) break;
  }
  // The bytes path reads these without parsing their other events.
  for (const text of texts) assert.ok(splitTelemetry(text, eventTypes(TALLIED_EVENT_TYPES)));
  const local = await openIngestContext(testDatabases[0]!);
  const fromBytes = await openIngestContext(testDatabases[0]!);
  const fromFiles = await openIngestContext(testDatabases[0]!);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-demo-files-'));
  try {
    for (const [i, text] of texts.entries()) {
      await ingestMatch(local.deps, JSON.parse(text.toString()), { source: text });
      assert.equal((await ingestMatchBytes(fromBytes.deps, null, text))?.status, 'ingested');
      fs.writeFileSync(path.join(dir, `match-${i}.json`), text);
    }
    const stored = await dump(fromBytes);
    assert.ok(stored.weapon_mastery!.length > 0 && stored.survival_mastery!.length > 0);
    assert.deepEqual(stored, await dump(local));
    // `gamedata ingest <dir>` without worker threads (one core) takes the same path.
    const results = await ingestPath(fromFiles.deps, dir);
    assert.deepEqual(
      results.map((r) => r.status),
      texts.map(() => 'ingested'),
    );
    assert.deepEqual(await dump(fromFiles), stored);

    // An event the schema refuses: the whole text is parsed, and refused as ingestMatch does.
    const match = JSON.parse(texts[0]!.toString()) as MatchInput & { telemetry: { _T: string }[] };
    match.id = '2b3b1f0e-8c55-4d3a-9a0e-5c6d7e8f9a10';
    match.telemetry[40]!._T = 'Heal';
    const bad = Buffer.from(JSON.stringify(match));
    const inProcess = await ingestMatch(local.deps, match).catch((error: unknown) => error);
    const refused = await ingestMatchBytes(fromBytes.deps, null, bad).catch((e: unknown) => e);
    assert.ok(refused instanceof IngestError && inProcess instanceof IngestError);
    assert.equal(refused.field, 'telemetry/40/_T');
    assert.equal(refused.message, inProcess.message);
    assert.deepEqual(await dump(fromBytes), stored);
  } finally {
    await local.close();
    await fromBytes.close();
    await fromFiles.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('[sqlite] matches stored by a worker process, their bytes in buffers earlier ones used, are what ingestMatch stores', async () => {
  // 60–360 KB each, so that each spans many of the socket's chunks: larger and smaller in turn,
  // two in flight at a time, each landing in a buffer an earlier match's bytes were in.
  const texts = [6000, 1000, 3000, 3000, 500, 5000, 2000, 1500].map((positions, i) =>
    paddedMatchText(
      makeMatchInput({
        seed: `pool-process-${i}`,
        rosters: 1 + (i % 3),
        // Apart in time: two in flight may commit in either order, and the newest match's
        // values win (a tie goes to the last stored).
        overrides: { createdAt: new Date(TEST_NOW - (i + 1) * 600_000).toISOString() },
      }),
      positions,
    ),
  );
  const { dataDir, databaseUrl, config } = fileStore('gamedata-process-pool-');
  const stored = await openStore(databaseUrl);
  const local = await openIngestContext(testDatabases[0]!);
  const pool = openPreparePool(1, config, 0, { config }, 'process');
  try {
    for (const text of texts) {
      await ingestMatch(local.deps, JSON.parse(text.toString()), { source: text });
    }
    const now = local.deps.clock.now();
    for (let i = 0; i < texts.length; i += 2) {
      const outcomes = await Promise.all(
        texts.slice(i, i + 2).map((text) => pool.prepare({ source: Buffer.from(text), now }, true)),
      );
      assert.deepEqual(
        outcomes.map((o) => (o.kind === 'stored' ? o.result.status : o)),
        ['ingested', 'ingested'],
      );
    }
    const mine = await dumpOf(stored, path.join(dataDir, 'blobs'));
    assert.equal(mine.blobs!.length, texts.length, 'a telemetry file a match');
    // Processes are sent bytes: a file is refused, for the caller to ingest without the pool.
    const file = path.join(dataDir, 'match.json');
    fs.writeFileSync(file, texts[0]!);
    await assert.rejects(pool.prepareFile(file, now), /sent bytes, not files/);
    assert.deepEqual(mine, await dump(local));
  } finally {
    await pool.close();
    await stored.close();
    await local.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

for (const workers of [0, 2]) {
  const how = workers === 0 ? 'on the main thread' : 'by two worker threads';
  test(`[sqlite] a directory's files, larger and smaller in turn, read ${how}, store what ingestMatch stores`, async () => {
    // 60–360 KB each, larger and smaller in turn: read into kept buffers, a file may land in one
    // an earlier, larger one filled, and must be read as exactly its own bytes (that the buffer
    // is the kept one, reusable-buffers.test.ts checks). One is gzip, one has its telemetry
    // in a sibling gzip file (stored as given, so never in a kept buffer).
    const inputs = [6000, 1000, 3000, 500, 5000, 2000, 1500].map((positions, i) => {
      const input = makeMatchInput({
        seed: `kept-files-${workers}-${i}`,
        rosters: 1 + (i % 3),
        overrides: { createdAt: new Date(TEST_NOW - (i + 1) * 600_000).toISOString() },
      });
      return { input, text: paddedMatchText(input, positions) };
    });
    const bare = makeMatchInput({ seed: `kept-files-${workers}-bare` });
    const sibling = zlib.gzipSync(JSON.stringify(sampleTelemetry(bare.id, TEST_NOW - 60_000)));
    const local = await openIngestContext(testDatabases[0]!);
    const fromFiles = await openIngestContext(testDatabases[0]!);
    const pool = workers === 0 ? null : openPreparePool(workers, fromFiles.deps.config);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-kept-files-'));
    try {
      for (const [i, { text }] of inputs.entries()) {
        await ingestMatch(local.deps, JSON.parse(text.toString()), { source: text });
        const file = path.join(dir, `match-${i}.json${i === 3 ? '.gz' : ''}`);
        fs.writeFileSync(file, i === 3 ? zlib.gzipSync(text) : text);
      }
      await ingestMatch(local.deps, bare, { telemetry: sibling });
      fs.writeFileSync(path.join(dir, 'match-7.json'), JSON.stringify(bare));
      fs.writeFileSync(path.join(dir, 'match-7.telemetry.json.gz'), sibling);

      const results = await ingestPath(fromFiles.deps, dir, pool ? { pool } : {});
      assert.deepEqual(
        results.map((r) => [path.basename(r.source), r.status]),
        [...inputs.keys(), 7].map((i) => [`match-${i}.json${i === 3 ? '.gz' : ''}`, 'ingested']),
      );
      const stored = await dump(fromFiles);
      assert.equal(stored.blobs!.length, inputs.length + 1, 'a telemetry file a match');
      assert.deepEqual(stored, await dump(local));
    } finally {
      await pool?.close();
      await local.close();
      await fromFiles.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('[sqlite] a pool that only looks matches up settles a directory ingested again; the caller stores new ones', async () => {
  const { dataDir, config } = fileStore('gamedata-lookup-pool-');
  const runtime = await openRuntime(config);
  const deps = { ...runtime, clock: fixedClock(TEST_NOW) };
  const pool = openPreparePool(2, config, 0, { config, lookupOnly: true });
  const texts = [0, 1, 2].map((i) => matchText(makeMatchInput({ seed: `lookup-${i}` })).text);
  const files = texts.map((text, i) => {
    const file = path.join(dataDir, `match-${i}.json`);
    fs.writeFileSync(file, text);
    return file;
  });
  try {
    // New: prepared whole, and stored by the caller only.
    const first = await Promise.all(files.map((file) => pool.prepareFile(file, TEST_NOW)));
    assert.deepEqual(
      first.map((o) => o.kind),
      ['prepared', 'prepared', 'prepared'],
    );
    fs.mkdirSync(path.join(dataDir, 'blobs'), { recursive: true });
    const none = await dumpOf(runtime.store, path.join(dataDir, 'blobs'));
    assert.deepEqual(none.matches, [], 'the workers stored nothing');
    assert.deepEqual(none.blobs, []);
    for (const outcome of first) await storePrepared(deps, outcome as never);
    const stored = await dumpOf(runtime.store, path.join(dataDir, 'blobs'));

    // Again: settled by the workers, unchanged, nothing gzipped or rendered to store.
    const again = await Promise.all(files.map((file) => pool.prepareFile(file, TEST_NOW)));
    assert.deepEqual(
      again.map((o) => (o.kind === 'stored' ? o.result.status : o.kind)),
      ['unchanged', 'unchanged', 'unchanged'],
    );
    // Another telemetry file for a stored match: refused by the worker, as storing would.
    const other = Buffer.from(texts[0]!.toString().replace('"x":1.0', '"x":2.0'));
    fs.writeFileSync(files[0]!, other);
    const refused = await pool.prepareFile(files[0]!, TEST_NOW);
    assert.equal(refused.kind === 'error' && refused.error.name, 'TelemetryConflictError');
    assert.deepEqual(await dumpOf(runtime.store, path.join(dataDir, 'blobs')), stored);
  } finally {
    await pool.close();
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

for (const kind of ['thread', 'process'] as const) {
  test(`[sqlite] a telemetry file is attached by a worker ${kind} that stores, as attachTelemetry would`, async () => {
    const { dataDir, config } = fileStore(`gamedata-attach-${kind}-`);
    const runtime = await openRuntime(config);
    const deps = { ...runtime, clock: fixedClock(TEST_NOW) };
    const pool = openPreparePool(1, config, 0, { config }, kind);
    const lookups = openPreparePool(1, config, 0, { config, lookupOnly: true });
    const input = makeMatchInput({ seed: `attach-${kind}` });
    const file = (marker: number) =>
      Buffer.from(JSON.stringify(sampleTelemetry(input.id, TEST_NOW - 60_000 - marker)));
    try {
      await ingestMatch(deps, input);
      const status = (outcome: Awaited<ReturnType<typeof pool.attach>>) =>
        outcome.kind === 'stored'
          ? outcome.result.status
          : outcome.kind === 'error' && outcome.error.name;
      assert.equal(pool.stores, true);
      assert.equal(
        status(await pool.attach(input.id, zlib.gzipSync(file(0)), TEST_NOW, true)),
        'attached',
      );
      assert.equal(status(await pool.attach(input.id, file(0), TEST_NOW)), 'unchanged');
      assert.equal(
        status(await pool.attach(input.id, file(1), TEST_NOW)),
        'TelemetryConflictError',
      );
      const unknown = '00000000-0000-4000-8000-000000000000';
      assert.equal(status(await pool.attach(unknown, file(0), TEST_NOW)), 'MatchNotStoredError');
      assert.equal(
        status(await pool.attach(input.id, Buffer.from('[{}]'), TEST_NOW)),
        'IngestError',
      );
      // Stored as given, and the match's document now names its asset.
      const [key] = (
        await runtime.store.db.selectFrom('matches').select('telemetry_key').execute()
      ).map((r) => r.telemetry_key);
      assert.ok(
        zlib.gunzipSync(fs.readFileSync(path.join(dataDir, 'blobs', key!))).equals(file(0)),
      );
      assert.equal(lookups.stores, false);
      await assert.rejects(lookups.attach(input.id, file(0), TEST_NOW), /store nothing/);
    } finally {
      await pool.close();
      await lookups.close();
      await runtime.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

test('the pool shuts down: pending and later tasks are refused, its threads end', async () => {
  const pool = openPreparePool(1, TEST_CONFIG);
  // The test clock's now, not the machine's: the match is dated by it, and a real now would
  // put it out of the retention window a fortnight after that date.
  const task = {
    source: Buffer.from(JSON.stringify(makeMatchInput({ seed: 'pool-close' }))),
    now: TEST_NOW,
  };
  try {
    const first = await pool.prepare(task);
    assert.equal(first.kind, 'prepared', JSON.stringify(first));
    const pending = assert.rejects(pool.prepare(task), /closed/);
    await pool.close();
    await pending;
    await assert.rejects(pool.prepare(task), /closed/);
  } finally {
    // A failed assertion must not leave the worker thread keeping the test process alive.
    await pool.close();
  }
});

test('what a storing worker fails with crosses back as the same class: 409, 404 and 503 stay so', () => {
  const errors: Error[] = [
    new IngestError('createdAt', 'no season of pc-b contains it'),
    new TelemetryConflictError('m-1'),
    new MatchNotStoredError('m-2'),
    new BlobStoreUnavailableError('put', 'the bucket refused the file'),
    new StoreUnavailableError('the database did not answer'),
  ];
  for (const error of errors) {
    const crossed = toError(errorOf(error));
    assert.equal(crossed.constructor, error.constructor, error.name);
    assert.equal(crossed.message, error.message);
    assert.deepEqual({ ...crossed }, { ...error }, `${error.name}'s own fields`);
  }
  // A driver's connection error is told apart by its code: it crosses as unavailable.
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
    code: 'ECONNREFUSED',
  });
  assert.ok(isStoreUnavailable(toError(errorOf(refused))));
  // Anything else is an error of its own, a 500 without its internals.
  assert.equal(toError(errorOf(new TypeError('x is undefined'))).constructor, Error);
});
