import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { openStore } from '../../src/store/store.ts';
import { withSchemaLock } from '../helpers/stores.ts';

const url = process.env.TEST_DATABASE_URL;
/** Far shorter than filling the region of this many aggregates (migration 0015) can take. */
const STATEMENT_TIMEOUT_MS = 20;
const AGGREGATES = 100_000;

test(
  'a migration longer than the statement timeout completes, and queries stay bounded by it',
  { skip: url === undefined ? 'PostgreSQL only: set TEST_DATABASE_URL' : false },
  async () => {
    const schema = `test_${crypto.randomBytes(6).toString('hex')}`;
    // Statements of the test's own, on a connection without the store's timeout.
    const admin = async (text: string): Promise<unknown[]> => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(text)).rows;
      } finally {
        await client.end();
      }
    };
    try {
      await withSchemaLock(url!, async () => {
        await admin(`CREATE SCHEMA ${schema}`);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a past schema, untyped
        const old = new Kysely<any>({
          dialect: new PostgresDialect({
            pool: new pg.Pool({ connectionString: url, options: `-c search_path=${schema}` }),
          }),
        });
        try {
          const migrator = new Migrator({
            db: old,
            migrationTableSchema: schema,
            provider: migrationProvider({ blobType: 'bytea', dialect: 'postgres' }),
          });
          const { error } = await migrator.migrateTo('0014-player-matches-one-index');
          assert.equal(error, undefined);
          await sql`INSERT INTO players (platform, account_id, name, ban_type, clan_id,
              first_seen_at, last_seen_at, region)
            SELECT 'steam', 'account.' || n, 'p' || n, 'Innocent', '', 0, 0, 'pc-eu'
            FROM generate_series(1, ${AGGREGATES}) AS n`.execute(old);
          await sql`INSERT INTO season_stats (platform, account_id, season_id, game_mode, updated_at)
            SELECT 'steam', 'account.' || n, 'season-x', 'solo', 0
            FROM generate_series(1, ${AGGREGATES}) AS n`.execute(old);
        } finally {
          await old.destroy();
        }
      });

      const store = await withSchemaLock(url!, () =>
        openStore(url!, { schema, statementTimeoutMs: STATEMENT_TIMEOUT_MS }),
      );
      try {
        assert.deepEqual(
          await admin(
            `SELECT region, count(*)::int AS n FROM ${schema}.season_stats GROUP BY region`,
          ),
          [{ region: 'pc-eu', n: AGGREGATES }],
        );
        await assert.rejects(sql`SELECT pg_sleep(1)`.execute(store.db), { code: '57014' });
      } finally {
        await store.close();
      }
    } finally {
      await withSchemaLock(url!, () => admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    }
  },
);
