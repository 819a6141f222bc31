import type { Kysely, Migration, MigrationProvider } from 'kysely';
import * as initial from './0001-initial.ts';
import * as jobsLeaderboardsSamples from './0002-jobs-leaderboards-samples.ts';
import * as changes from './0003-changes.ts';
import * as keyScopes from './0004-key-scopes.ts';
import * as demoRunsRebuilds from './0005-demo-runs-rebuilds.ts';
import * as ranked from './0006-ranked.ts';
import * as clansRecordedDocuments from './0007-clans-recorded-documents.ts';
import * as mastery from './0008-mastery.ts';
import * as mirror from './0009-mirror.ts';
import * as matchDocumentOneCopy from './0011-match-document-one-copy.ts';
import * as leaderboardRankingIndex from './0013-leaderboard-ranking-index.ts';
import * as playerMatchesOneIndex from './0014-player-matches-one-index.ts';
import * as seasonStatsRegion from './0015-season-stats-region.ts';
import * as playerMatchesByPlayer from './0016-player-matches-by-player.ts';
import * as statDaysOneCopy from './0017-stat-days-one-copy.ts';
import * as keysKeptOnce from './0018-keys-kept-once.ts';

/** What a migration needs to know about the database it runs on. */
export interface MigrationContext {
  /** Column type for byte strings: `blob` on SQLite, `bytea` on PostgreSQL. */
  blobType: 'blob' | 'bytea';
  /** The database, for what its SQL says differently (triggers). */
  dialect: 'sqlite' | 'postgres';
}

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */
type Step = { up(db: Kysely<any>, context: MigrationContext): Promise<void> };

/** Every migration, in order. Names sort in the order they must run. */
const STEPS: Record<string, Step> = {
  '0001-initial': initial,
  '0002-jobs-leaderboards-samples': jobsLeaderboardsSamples,
  '0003-changes': changes,
  '0004-key-scopes': keyScopes,
  '0005-demo-runs-rebuilds': demoRunsRebuilds,
  '0006-ranked': ranked,
  '0007-clans-recorded-documents': clansRecordedDocuments,
  '0008-mastery': mastery,
  '0009-mirror': mirror,
  '0011-match-document-one-copy': matchDocumentOneCopy,
  '0013-leaderboard-ranking-index': leaderboardRankingIndex,
  '0014-player-matches-one-index': playerMatchesOneIndex,
  '0015-season-stats-region': seasonStatsRegion,
  '0016-player-matches-by-player': playerMatchesByPlayer,
  '0017-stat-days-one-copy': statDaysOneCopy,
  '0018-keys-kept-once': keysKeptOnce,
};

/** The migrations as Kysely's Migrator wants them, bound to one database's context. */
export function migrationProvider(context: MigrationContext): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      const migrations: Record<string, Migration> = {};
      for (const [name, step] of Object.entries(STEPS)) {
        migrations[name] = { up: (db) => step.up(db, context) };
      }
      return migrations;
    },
  };
}
