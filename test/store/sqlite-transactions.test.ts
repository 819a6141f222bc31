import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { isSqliteBusy } from '../../src/store/sqlite/lock-wait.ts';
import { openStore } from '../../src/store/store.ts';

/**
 * A transaction that reads before it writes must hold the write lock from its start: begun
 * deferred, another connection's commit between its read and its write makes SQLite refuse the
 * write at once (SQLITE_BUSY, no busy handler), so a purge or an ingest failed instead of waiting.
 */
test('a SQLite transaction holds the write lock from its start, before its first write', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-trx-'));
  const file = path.join(dir, 'gamedata.sqlite');
  const store = await openStore(`sqlite:${file}`);
  const other = new BetterSqlite3(file);
  other.pragma('busy_timeout = 0');
  try {
    const outcome = await store.db.transaction().execute(async (trx) => {
      await trx.selectFrom('seasons').select('id').execute();
      let otherWrite: string;
      try {
        other
          .prepare(
            `insert into seasons (platform, id, position, starts_at, is_offseason)
          values ('pc-a', 'division.bro.official.other', 0, null, 0)`,
          )
          .run();
        otherWrite = 'written';
      } catch (error) {
        otherWrite = isSqliteBusy(error) ? 'busy' : String(error);
      }
      await trx
        .insertInto('seasons')
        .values({
          platform: 'pc-a',
          id: 'division.bro.official.own',
          position: 1,
          starts_at: null,
          is_offseason: 0,
        })
        .execute();
      return otherWrite;
    });
    assert.equal(
      outcome,
      'busy',
      'the other connection could not write while the transaction was open',
    );
    const ids = (await store.db.selectFrom('seasons').select('id').execute()).map((row) => row.id);
    assert.ok(ids.includes('division.bro.official.own'), 'the transaction committed');
    other
      .prepare(
        `insert into seasons (platform, id, position, starts_at, is_offseason)
      values ('pc-a', 'division.bro.official.other', 0, null, 0)`,
      )
      .run();
  } finally {
    other.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
