/**
 * Reading sample lists and their entries: what the samples job plans from and the samples
 * endpoint serves. The job's writes are in `sample-writes.ts`.
 */
import type { Selectable } from 'kysely';
import type { SampleListsTable } from './schema.ts';
import type { Db } from './store.ts';

export interface SampleList {
  id: string;
  region: string;
  /** The sample's time: the end of its window (epoch ms). */
  createdAt: number;
  windowStart: number;
  /** Bumped whenever entries are removed (purge) or added to an empty list. */
  revision: number;
  /** Matches of its region and window (within retention) when its entries were drawn. */
  drawnFrom: number;
}

/** A match listed in a sample, with what the endpoint needs to point clients at it. */
export interface SampleEntry {
  sampleId: string;
  matchId: string;
  platform: string;
  createdAt: number;
}

function toSampleList(row: Selectable<SampleListsTable>): SampleList {
  return {
    id: row.id,
    region: row.region,
    createdAt: Number(row.created_at),
    windowStart: Number(row.window_start),
    revision: Number(row.revision),
    drawnFrom: Number(row.drawn_from),
  };
}

/** createdAt of the oldest stored match (epoch ms), or null without matches. */
export async function oldestMatchTime(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('matches')
    .select('created_at')
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? null : Number(row.created_at);
}

/**
 * createdAt of the first match created in [from, to) (epoch ms), or null: one seek on the
 * matches' time index, whatever the number of matches.
 */
export async function firstMatchTimeBetween(
  db: Db,
  from: number,
  to: number,
): Promise<number | null> {
  const row = await db
    .selectFrom('matches')
    .select('created_at')
    .$if(Number.isFinite(from), (qb) => qb.where('created_at', '>=', from))
    .where('created_at', '<', to)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? null : Number(row.created_at);
}

/** Every sample list of any region created in [from, to]. */
export async function listSampleListsBetween(
  db: Db,
  from: number,
  to: number,
): Promise<SampleList[]> {
  const rows = await db
    .selectFrom('sample_lists')
    .selectAll()
    .where('created_at', '>=', from)
    .where('created_at', '<=', to)
    .execute();
  return rows.map(toSampleList);
}

/**
 * The lists created in [from, to] that have no entries although their region now has matches
 * created in their window at or after `since` (matches ingested after the list was built).
 */
export async function findFillableSampleLists(
  db: Db,
  from: number,
  to: number,
  since: number,
): Promise<SampleList[]> {
  const rows = await db
    .selectFrom('sample_lists as l')
    .selectAll('l')
    .where('l.created_at', '>=', from)
    .where('l.created_at', '<=', to)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('sample_matches as s')
            .select('s.match_id')
            .whereRef('s.sample_id', '=', 'l.id'),
        ),
      ),
    )
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('matches as m')
          .select('m.id')
          .whereRef('m.region', '=', 'l.region')
          .whereRef('m.created_at', '>=', 'l.window_start')
          .whereRef('m.created_at', '<', 'l.created_at')
          .$if(Number.isFinite(since), (qb) => qb.where('m.created_at', '>=', since)),
      ),
    )
    .execute();
  return rows.map(toSampleList);
}

/** Ids of the matches of `region` created in [from, to), in no particular order. */
export async function listMatchIdsInWindow(
  db: Db,
  region: string,
  from: number,
  to: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('matches')
    .select('id')
    .where('region', '=', region)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * The newest lists of `regions` that share the newest sample time among them (one per region
 * at most); empty when none of the regions has a list.
 */
export async function findLatestSampleLists(
  db: Db,
  regions: readonly string[],
): Promise<SampleList[]> {
  const rows = await db
    .selectFrom('sample_lists')
    .selectAll()
    .where('region', 'in', regions)
    .orderBy('created_at', 'desc')
    .orderBy('region')
    .limit(regions.length)
    .execute();
  return sameSampleTime(rows.map(toSampleList));
}

/**
 * The lists of `regions` whose window holds `at` (windowStart ≤ at < createdAt), all of the
 * same sample time; empty when no list covers it.
 */
export async function findSampleListsCovering(
  db: Db,
  regions: readonly string[],
  at: number,
): Promise<SampleList[]> {
  const rows = await db
    .selectFrom('sample_lists')
    .selectAll()
    .where('region', 'in', regions)
    .where('created_at', '>', at)
    .where('window_start', '<=', at)
    .orderBy('created_at')
    .orderBy('region')
    .limit(regions.length)
    .execute();
  return sameSampleTime(rows.map(toSampleList));
}

/** The leading lists that share the first list's sample time (windows of another period are left out). */
function sameSampleTime(lists: SampleList[]): SampleList[] {
  const first = lists[0];
  return first === undefined ? [] : lists.filter((list) => list.createdAt === first.createdAt);
}

/**
 * The entries of the given lists whose matches still exist and were created at or after
 * `since` (-Infinity: all), list by list in the order given, each list in its stored (random) order.
 */
export async function listSampleEntries(
  db: Db,
  sampleIds: readonly string[],
  since: number,
): Promise<SampleEntry[]> {
  if (sampleIds.length === 0) return [];
  const rows = await db
    .selectFrom('sample_matches as s')
    .innerJoin('matches as m', 'm.id', 's.match_id')
    .select(['s.sample_id', 's.match_id', 'm.platform', 'm.created_at'])
    .where('s.sample_id', 'in', sampleIds)
    .$if(Number.isFinite(since), (qb) => qb.where('m.created_at', '>=', since))
    .orderBy('s.sample_id')
    .orderBy('s.position')
    .execute();
  const order = new Map(sampleIds.map((id, index) => [id, index]));
  return rows
    .map((row) => ({
      sampleId: row.sample_id,
      matchId: row.match_id,
      platform: row.platform,
      createdAt: Number(row.created_at),
    }))
    .sort((a, b) => order.get(a.sampleId)! - order.get(b.sampleId)!);
}
