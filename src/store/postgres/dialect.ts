import pg from 'pg';
import { PostgresDialect, sql, type Expression, type RawBuilder } from 'kysely';
import type { DialectAdapter } from '../store.ts';

const INT8_OID = 20;

/** Connects a pool to PostgreSQL. Timestamps are bigint columns, read back as JS numbers. */
export function postgresAdapter(url: string, schema?: string): DialectAdapter {
  const pool = new pg.Pool({
    connectionString: url,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    max: 10,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  return {
    name: 'postgres',
    dialect: new PostgresDialect({ pool }),
    blobType: 'bytea',
    greatest: <T>(a: Expression<T>, b: Expression<T>): RawBuilder<T> =>
      sql<T>`greatest(${a}, ${b})`,
  };
}
