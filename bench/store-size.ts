/**
 * Bytes on disk of the bench store, per match and per player, table by table (data and
 * indexes apart), so that redundant copies show: SQLite through its `dbstat` table, PostgreSQL
 * (with `--database-url`: the demo is loaded and its jobs run in a database made for it and
 * dropped after)
 * through `pg_table_size` / `pg_indexes_size`, as loaded and after `VACUUM (FULL)`. Telemetry
 * files are counted apart.
 *
 * The only SQL outside src/store/: catalogue queries of each database about itself, which the
 * service has no use for.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { JOBS } from '../src/jobs/index.ts';
import type { BenchData } from './bench-data.ts';
import type { ChildRegistry } from './children.ts';
import { runCli } from './ingest-paths.ts';
import { count, markdownTable, size } from './report.ts';

export interface TableSize {
  table: string;
  rows: number;
  dataBytes: number;
  indexBytes: number;
}

export interface StoreSize {
  database: 'SQLite' | 'PostgreSQL';
  /**
   * How the tables stood when measured, for PostgreSQL: right after the load (with whether
   * autovacuum runs, since without it every upsert's old row versions and index entries stay),
   * and after `VACUUM (FULL)`, which rewrites each table and index with its live rows only.
   */
  state?: string;
  matches: number;
  players: number;
  tables: TableSize[];
  /** Telemetry files (the blob directory). */
  blobBytes: number;
}

/** SQLite: pages of every table and index from `dbstat`, indexes counted with their table. */
export function sqliteSize(file: string): TableSize[] {
  const db = new Database(file, { readonly: true });
  try {
    const objects = db
      .prepare(
        "SELECT name, tbl_name AS owner, type FROM sqlite_master WHERE type IN ('table', 'index')",
      )
      .all() as Array<{ name: string; owner: string; type: string }>;
    const pages = new Map(
      (
        db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as Array<{
          name: string;
          bytes: number;
        }>
      ).map((row) => [row.name, row.bytes]),
    );
    const tables = objects.filter((o) => o.type === 'table');
    return tables.map((table) => ({
      table: table.name,
      rows: (db.prepare(`SELECT COUNT(*) AS n FROM "${table.name}"`).get() as { n: number }).n,
      dataBytes: pages.get(table.name) ?? 0,
      indexBytes: objects
        .filter((o) => o.type === 'index' && o.owner === table.name)
        .reduce((sum, o) => sum + (pages.get(o.name) ?? 0), 0),
    }));
  } finally {
    db.close();
  }
}

/**
 * The PostgreSQL store as loaded and then compacted: ingest upserts a season aggregate and
 * mastery rows for every participant of every match, and each upsert leaves the row's old
 * version and, where an indexed column changed, old index entries behind until a vacuum. A
 * deployment's autovacuum keeps that in check as it goes; a database without it (such as a
 * test cluster) shows it all, so the size of the live rows is measured too.
 */
export async function postgresSizes(
  client: pg.Client,
): Promise<Array<{ state: string; tables: TableSize[] }>> {
  const autovacuum = (await client.query<{ autovacuum: string }>('SHOW autovacuum')).rows[0]!
    .autovacuum;
  const loaded = await postgresSize(client);
  // Outside any transaction, every table of the database (the bench made it for itself).
  await client.query('VACUUM (FULL, ANALYZE)');
  return [
    { state: `as loaded, autovacuum ${autovacuum}`, tables: loaded },
    { state: 'after VACUUM (FULL)', tables: await postgresSize(client) },
  ];
}

/** PostgreSQL: every table of the connection's schema, with exact row counts. */
export async function postgresSize(client: pg.Client): Promise<TableSize[]> {
  const { rows } = await client.query<{ table: string; data: string; indexes: string }>(
    `SELECT c.relname AS table, pg_table_size(c.oid) AS data, pg_indexes_size(c.oid) AS indexes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND n.nspname = current_schema()`,
  );
  const sizes: TableSize[] = [];
  for (const row of rows) {
    const counted = await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM "${row.table}"`);
    sizes.push({
      table: row.table,
      rows: Number(counted.rows[0]!.n),
      dataBytes: Number(row.data),
      indexBytes: Number(row.indexes),
    });
  }
  return sizes;
}

function directoryBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + fs.statSync(path.join(entry.parentPath, entry.name)).size, 0);
}

const rowsOf = (tables: TableSize[], name: string): number =>
  tables.find((t) => t.table === name)?.rows ?? 0;

export async function measureStoreSize(
  children: ChildRegistry,
  options: {
    data: BenchData;
    seed: number;
    scale: number;
    /** Players the SQLite store was grown to with twins: the PostgreSQL one is grown alike. */
    players: number | undefined;
    databaseUrl: string | undefined;
    log: (line: string) => void;
  },
): Promise<StoreSize[]> {
  const sqlite = sqliteSize(path.join(options.data.dir, 'gamedata.sqlite'));
  const blobBytes = directoryBytes(path.join(options.data.dir, 'blobs'));
  const sizes: StoreSize[] = [
    {
      database: 'SQLite',
      matches: rowsOf(sqlite, 'matches'),
      players: rowsOf(sqlite, 'players'),
      tables: sqlite,
      blobBytes,
    },
  ];
  if (options.databaseUrl === undefined) return sizes;

  const name = `gd_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: options.databaseUrl });
  await admin.connect();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-bench-pg-'));
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(options.databaseUrl);
    url.pathname = `/${name}`;
    options.log(
      `Store size on PostgreSQL: loading the demo (scale ${options.scale}) into ${name}…`,
    );
    const cli = (args: string[]): ReturnType<typeof runCli> =>
      runCli(children, args, { dataDir, cpus: null, env: { DATABASE_URL: url.toString() } });
    // The same content as the SQLite store: the demo (grown alike), then every job once.
    const grown = options.players === undefined ? [] : ['--players', String(options.players)];
    for (const args of [
      ['demo', '--scale', String(options.scale), '--seed', String(options.seed), ...grown],
      ...JOBS.map((job) => ['jobs', 'run', job.name]),
    ]) {
      const run = await cli(args);
      if (run.code !== 0)
        throw new Error(`gamedata ${args.join(' ')} on PostgreSQL: ${run.output}`);
    }
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      const blobs = directoryBytes(path.join(dataDir, 'blobs'));
      for (const { state, tables } of await postgresSizes(client)) {
        sizes.push({
          database: 'PostgreSQL',
          state,
          matches: rowsOf(tables, 'matches'),
          players: rowsOf(tables, 'players'),
          tables,
          blobBytes: blobs,
        });
      }
    } finally {
      await client.end();
    }
  } finally {
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return sizes;
}

export function storeSizeTable(store: StoreSize): string {
  const per = (bytes: number, n: number): string => (n > 0 ? size(bytes / n) : '—');
  const total = store.tables.reduce((sum, t) => sum + t.dataBytes + t.indexBytes, 0);
  const rows = [...store.tables]
    .sort((a, b) => b.dataBytes + b.indexBytes - (a.dataBytes + a.indexBytes))
    .map((t) => [
      t.table,
      count(t.rows),
      size(t.dataBytes),
      size(t.indexBytes),
      per(t.dataBytes + t.indexBytes, store.matches),
      per(t.dataBytes + t.indexBytes, store.players),
    ]);
  rows.push(['**all tables**', '', '', '', per(total, store.matches), per(total, store.players)]);
  rows.push([
    'telemetry files',
    '',
    size(store.blobBytes),
    '',
    per(store.blobBytes, store.matches),
    '',
  ]);
  return (
    `${store.database}${store.state === undefined ? '' : ` (${store.state})`}: ` +
    `${count(store.matches)} matches, ${count(store.players)} players, ` +
    `${size(total)} in tables + ${size(store.blobBytes)} of telemetry files.\n\n` +
    markdownTable(['table', 'rows', 'data', 'indexes', 'per match', 'per player'], rows)
  );
}
