/**
 * Ingest dependencies for tests: a fresh store of one test database, a blob directory in the
 * system's temporary directory, a fixed clock at TEST_NOW and a config with the vendor shard
 * aliases. `close` removes everything.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { directoryBlobStore } from '../../src/blobs/directory-blob-store.ts';
import { fixedClock } from '../../src/clock.ts';
import { VENDOR_SHARD_ALIASES } from '../../src/domain/shards.ts';
import type { IngestDeps } from '../../src/ingest/ingest-match.ts';
import type { TestDatabase } from './stores.ts';
import { TEST_NOW } from './matches.ts';

export interface IngestTestContext {
  deps: IngestDeps & { clock: ReturnType<typeof fixedClock> };
  blobDir: string;
  /** Paths of every stored blob, relative to the blob directory, sorted. */
  blobs(): string[];
  /** Row counts of the tables ingest writes. */
  rowCounts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

export const TEST_CONFIG = Object.freeze({
  publicBaseUrl: 'http://api.test',
  telemetryBaseUrl: 'http://cdn.test',
  retentionDays: 14,
  shardAliases: VENDOR_SHARD_ALIASES,
  ingestMaxBytes: 64 * 1024 * 1024,
});

const INGEST_TABLES = [
  'matches',
  'rosters',
  'participants',
  'players',
  'player_matches',
  'season_stats',
  'stat_days',
  'tournaments',
  'match_documents',
] as const;

export async function openIngestContext(
  database: TestDatabase,
  config: Partial<IngestDeps['config']> = {},
): Promise<IngestTestContext> {
  const store = await database.open();
  const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-blobs-'));
  const deps = {
    store,
    blobs: directoryBlobStore(blobDir),
    clock: fixedClock(TEST_NOW),
    config: { ...TEST_CONFIG, ...config },
  };
  return {
    deps,
    blobDir,
    blobs: () =>
      (fs.readdirSync(blobDir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(blobDir, path.join(entry.parentPath, entry.name)))
        .sort(),
    async rowCounts() {
      const counts: Record<string, number> = {};
      for (const table of INGEST_TABLES) {
        const row = await store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        counts[table] = Number(row.n);
      }
      return counts;
    },
    async close() {
      await store.close();
      fs.rmSync(blobDir, { recursive: true, force: true });
    },
  };
}
