import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { postgresSizes, sqliteSize, storeSizeTable } from '../../bench/store-size.ts';
import { ownDatabase } from '../faults/fault-helpers.ts';

test('SQLite sizes count each table with its own indexes and its exact rows', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-size-'));
  try {
    const file = path.join(dir, 'store.sqlite');
    const db = new Database(file);
    db.exec('CREATE TABLE wide (id INTEGER PRIMARY KEY, note TEXT NOT NULL)');
    db.exec('CREATE INDEX wide_by_note ON wide (note)');
    db.exec('CREATE TABLE small (id INTEGER PRIMARY KEY)');
    const insert = db.prepare('INSERT INTO wide (note) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 2_000; i++) insert.run(`note ${i} `.repeat(20));
    })();
    db.close();

    const tables = sqliteSize(file);
    const wide = tables.find((t) => t.table === 'wide')!;
    const small = tables.find((t) => t.table === 'small')!;
    assert.equal(wide.rows, 2_000);
    assert.equal(small.rows, 0);
    // About 200 bytes of text a row, in the table and again in its index.
    assert.ok(wide.dataBytes > 2_000 * 200, `data ${wide.dataBytes}`);
    assert.ok(wide.indexBytes > 2_000 * 200, `indexes ${wide.indexBytes}`);
    assert.equal(small.indexBytes, 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a size table names its state and gives every table per match and per player', () => {
  const text = storeSizeTable({
    database: 'PostgreSQL',
    state: 'after VACUUM (FULL)',
    matches: 10,
    players: 4,
    tables: [
      { table: 'matches', rows: 10, dataBytes: 8_192, indexBytes: 2_048 },
      { table: 'players', rows: 4, dataBytes: 4_096, indexBytes: 0 },
    ],
    blobBytes: 1_000,
  });
  assert.match(text, /^PostgreSQL \(after VACUUM \(FULL\)\): 10 matches, 4 players, /);
  // 10,240 bytes over 10 matches and 4 players; all tables 14,336 bytes.
  assert.match(text, /\| matches +\| +10 \|.*\| +1\.0 KB \| +2\.5 KB \|/);
  assert.match(text, /\| \*\*all tables\*\* +\|.*\| +1\.4 KB \| +3\.5 KB \|/);
});

test(
  'PostgreSQL sizes show the old row versions upserts leave, and the live rows once compacted',
  { skip: !process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL is not set' },
  async () => {
    const own = await ownDatabase('storesize');
    await own.create();
    const client = new pg.Client({ connectionString: own.url });
    await client.connect();
    try {
      await client.query(
        'CREATE TABLE aggregates (id int PRIMARY KEY, score int NOT NULL, note text NOT NULL)',
      );
      await client.query('CREATE INDEX aggregates_by_score ON aggregates (score)');
      await client.query(
        "INSERT INTO aggregates SELECT i, 0, repeat('x', 100) FROM generate_series(1, 2000) i",
      );
      // Ten rounds of upserts that change an indexed column, as ingest's season aggregates do.
      for (let round = 1; round <= 10; round++) {
        await client.query(
          `INSERT INTO aggregates SELECT i, ${round}, repeat('x', 100) FROM generate_series(1, 2000) i
           ON CONFLICT (id) DO UPDATE SET score = excluded.score`,
        );
      }
      const [loaded, compacted] = await postgresSizes(client);
      assert.match(loaded!.state, /^as loaded, autovacuum (on|off)$/);
      assert.equal(compacted!.state, 'after VACUUM (FULL)');
      const before = loaded!.tables.find((t) => t.table === 'aggregates')!;
      const after = compacted!.tables.find((t) => t.table === 'aggregates')!;
      assert.equal(before.rows, 2_000);
      assert.equal(after.rows, 2_000);
      // Eleven versions of each row were written; once compacted, one is left.
      assert.ok(after.dataBytes * 3 < before.dataBytes, `${after.dataBytes} < ${before.dataBytes}`);
      assert.ok(after.indexBytes < before.indexBytes, `${after.indexBytes} < ${before.indexBytes}`);
    } finally {
      await client.end();
      await own.drop();
    }
  },
);
