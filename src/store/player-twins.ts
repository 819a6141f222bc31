/**
 * Player twins: a store grown to a million players without generating a million players'
 * matches. A twin copies a demo player — its platform, region, season aggregates and match
 * list — under an id and a name of its own (not its stat days: only ingest reads them, and
 * twins play no match; nor ranked stats or mastery, which no job reads). Every copy is one INSERT … SELECT per table,
 * so the rows never pass through JS; the same SQL runs on SQLite and PostgreSQL.
 */
import { sql, type RawBuilder } from 'kysely';
import {
  DAILY_STAT_COLUMNS,
  MAXED_STAT_COLUMNS,
  SUMMED_STAT_COLUMNS,
  WEEKLY_STAT_COLUMNS,
} from '../domain/stats.ts';
import type { Db } from './store.ts';

/**
 * Twin ids are `account.` + this + 14 decimal digits (`10^13 + index`): 32 hex digits, valid
 * account ids that no random demo id begins with, so twins are told apart from their templates.
 */
export const TWIN_ID_PREFIX = 'account.f00dfeedfacef00d00';
const TWIN_INDEX_OFFSET = 10_000_000_000_000;

/** The account id of twin number `index` (0-based), as the SQL below writes it. */
export const twinAccountId = (index: number): string =>
  `${TWIN_ID_PREFIX}${TWIN_INDEX_OFFSET + index}`;

/** The name of twin number `index`: unique, so lookups by name find exactly one player. */
export const twinName = (index: number): string => `Twin${index}`;

/** A player whose rows twins copy; `index` numbers the templates 0…n-1. */
export interface TwinTemplate {
  index: number;
  platform: string;
  accountId: string;
}

/** Players with season aggregates (no bots, no twins), in a stable order: what twins copy. */
export async function listTwinTemplates(db: Db): Promise<TwinTemplate[]> {
  const rows = await db
    .selectFrom('players as p')
    .select(['p.platform', 'p.account_id'])
    .where('p.account_id', 'not like', `${TWIN_ID_PREFIX}%`)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('season_stats as s')
          .select('s.account_id')
          .whereRef('s.platform', '=', 'p.platform')
          .whereRef('s.account_id', '=', 'p.account_id'),
      ),
    )
    .orderBy('p.platform')
    .orderBy('p.account_id')
    .execute();
  return rows.map((row, index) => ({ index, platform: row.platform, accountId: row.account_id }));
}

/** Players stored, twins included. */
export async function countPlayers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('players')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Twins stored so far (they are numbered 0…count-1). */
export async function countTwins(db: Db): Promise<number> {
  const row = await db
    .selectFrom('players')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', 'like', `${TWIN_ID_PREFIX}%`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const SEASON_STAT_COLUMNS = [
  ...SUMMED_STAT_COLUMNS,
  ...MAXED_STAT_COLUMNS,
  ...DAILY_STAT_COLUMNS,
  ...WEEKLY_STAT_COLUMNS,
  'days',
  'season_id',
  'game_mode',
  'updated_at',
];

/** Per table: the columns copied from the template's rows as they are. */
const COPIED_COLUMNS: Record<'season_stats' | 'player_matches', string[]> = {
  // The template's region, which is also the twin's (its players row copies it too).
  season_stats: [...SEASON_STAT_COLUMNS, 'region'],
  player_matches: ['match_id', 'created_at', 'game_mode', 'season_id', 'is_custom'],
};

/**
 * Stores, in one transaction, the twins of `templates` (a slice of the store's `templateCount`
 * templates) in rounds `firstRound`… `firstRound + rounds - 1`: twin number `r·templateCount +
 * template.index` of round `r`, kept when it is in [`from`, `limit`).
 */
export async function insertTwins(
  db: Db,
  batch: {
    templates: readonly TwinTemplate[];
    templateCount: number;
    firstRound: number;
    rounds: number;
    /** Twin numbers stored: at least `from` (those below exist), below `limit`. */
    from: number;
    limit: number;
  },
): Promise<void> {
  const { templates, templateCount, firstRound, rounds, from, limit } = batch;
  const values = sql.join(
    templates.map(
      (t) =>
        sql`(CAST(${t.index} AS bigint), CAST(${t.platform} AS text), CAST(${t.accountId} AS text))`,
    ),
  );
  /** INSERT INTO `table` the template rows of `table` with the twin's id (and `extra` values). */
  const copy = (
    table: string,
    columns: readonly string[],
    extra: Record<string, RawBuilder<unknown>> = {},
  ) => {
    const targets = ['platform', 'account_id', ...Object.keys(extra), ...columns];
    const selected = [
      sql`src.platform`,
      sql`${sql.lit(TWIN_ID_PREFIX)} || CAST(twins.k + ${sql.lit(TWIN_INDEX_OFFSET)} AS text)`,
      ...Object.values(extra),
      ...columns.map((column) => sql.ref(`src.${column}`)),
    ];
    return sql`
      INSERT INTO ${sql.table(table)} (${sql.join(targets.map((column) => sql.ref(column)))})
      WITH RECURSIVE rounds(r) AS (
        SELECT CAST(${firstRound} AS bigint)
        UNION ALL SELECT r + 1 FROM rounds WHERE r + 1 < ${firstRound + rounds}
      ),
      templates(n, platform, account_id) AS (VALUES ${values}),
      twins AS (
        SELECT t.platform, t.account_id,
          CAST(rounds.r * ${templateCount} + t.n AS bigint) AS k
        FROM templates t CROSS JOIN rounds
        WHERE rounds.r * ${templateCount} + t.n >= ${from}
          AND rounds.r * ${templateCount} + t.n < ${limit}
      )
      SELECT ${sql.join(selected)}
      FROM twins JOIN ${sql.table(table)} src
        ON src.platform = twins.platform AND src.account_id = twins.account_id`;
  };
  await db.transaction().execute(async (trx) => {
    await copy('players', ['ban_type', 'first_seen_at', 'last_seen_at', 'region'], {
      name: sql`'Twin' || CAST(twins.k AS text)`,
      clan_id: sql`''`,
    }).execute(trx);
    for (const [table, columns] of Object.entries(COPIED_COLUMNS)) {
      await copy(table, columns).execute(trx);
    }
  });
}
