import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { testDatabases } from '../helpers/stores.ts';
import {
  StoreUnavailableError,
  availabilityReporter,
  describeStoreError,
  isStoreUnavailable,
} from '../../src/store/store-errors.ts';

/** Runs `work` and returns what it threw. */
function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  assert.fail('expected an error');
}

test('a SQLite database locked by another connection is unavailable, not broken', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-busy-'));
  const holder = new BetterSqlite3(path.join(dir, 'db.sqlite'));
  const waiter = new BetterSqlite3(path.join(dir, 'db.sqlite'));
  try {
    holder.exec('CREATE TABLE t (x INTEGER)');
    waiter.pragma('busy_timeout = 0');
    holder.exec('BEGIN EXCLUSIVE');
    const busy = thrownBy(() => waiter.prepare('INSERT INTO t VALUES (1)').run());
    assert.equal((busy as { code?: string }).code, 'SQLITE_BUSY');
    assert.ok(isStoreUnavailable(busy));
    holder.exec('ROLLBACK');
    // A statement that is wrong stays an error of its own (a 500, a failed job).
    const wrong = thrownBy(() => waiter.prepare('SELECT nope FROM t').run());
    assert.ok(!isStoreUnavailable(wrong));
  } finally {
    holder.close();
    waiter.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

for (const database of testDatabases) {
  test(`[${database.name}] a wrong statement is not an availability error`, async () => {
    const store = await database.open();
    const wrong = await sql`select * from no_such_table`.execute(store.db).catch((e) => e);
    assert.ok(wrong instanceof Error);
    assert.ok(!isStoreUnavailable(wrong), describeStoreError(wrong));
    await store.close();
  });
}

test('availability errors are found inside causes and aggregates, and described in one line', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:5432'), {
    code: 'ECONNREFUSED',
  });
  const wrapped = new StoreUnavailableError('No connection to PostgreSQL', { cause: refused });
  assert.ok(isStoreUnavailable(wrapped));
  assert.equal(describeStoreError(wrapped), 'connect ECONNREFUSED 10.0.0.1:5432');
  assert.ok(isStoreUnavailable(new AggregateError([refused], '')));
  assert.ok(isStoreUnavailable(new Error('outer', { cause: refused })));
  const shutdown = Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
  });
  assert.ok(isStoreUnavailable(shutdown));
  assert.equal(
    describeStoreError(shutdown),
    'terminating connection due to administrator command (57P01)',
  );
  assert.ok(!isStoreUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' })));
  assert.ok(!isStoreUnavailable(new TypeError('x is undefined')));
});

test('availability is reported when it changes, not on every failure', async () => {
  const lines: string[] = [];
  const reporter = availabilityReporter('PostgreSQL', {
    warn: (line) => lines.push(`warn ${line}`),
    info: (line) => lines.push(`info ${line}`),
  });
  const lost = Object.assign(new Error('Connection terminated unexpectedly'), {});
  reporter.failed(lost);
  assert.deepEqual(lines, [], 'silent until it has connected once');
  reporter.succeeded();
  reporter.failed(lost);
  reporter.failed(lost);
  reporter.succeeded();
  assert.equal(lines.length, 1, 'a success right after failures is not news yet');
  assert.match(lines[0]!, /^warn PostgreSQL unavailable: Connection terminated unexpectedly;/);
  await new Promise((resolve) => setTimeout(resolve, 1_050));
  reporter.succeeded();
  reporter.succeeded();
  assert.deepEqual(lines.slice(1), ['info PostgreSQL available again']);
});
