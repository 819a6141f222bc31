import { PLATFORMS, type Platform } from '../domain/shards.ts';
import { seasonCatalogue, type SeasonDefinition } from '../domain/seasons.ts';
import type { Db, Store } from './store.ts';
import { DOCUMENT_KINDS, announceDocumentChanges } from './document-changes.ts';
import { transactWithoutBlocking } from './sqlite/lock-wait.ts';

/**
 * Adds the catalogue's seasons up to `now` (and the next one) that the table lacks. Existing
 * rows are left alone, so an operator's edits to the table survive restarts; safe to run from
 * several processes at once.
 */
export async function syncSeasons(store: Store, now: number): Promise<void> {
  await transactWithoutBlocking(store, async (trx) => {
    let added = false;
    for (const platform of PLATFORMS) {
      const catalogue = seasonCatalogue(platform, now);
      const known = new Set(
        (
          await trx.selectFrom('seasons').select('id').where('platform', '=', platform).execute()
        ).map((r) => r.id),
      );
      const missing = catalogue
        .map((season, position) => ({ season, position }))
        .filter(({ season }) => !known.has(season.id));
      if (missing.length === 0) continue;
      await trx
        .insertInto('seasons')
        .values(
          missing.map(({ season, position }) => ({
            platform,
            id: season.id,
            position,
            starts_at: season.startsAt,
            is_offseason: 0,
          })),
        )
        // Another instance (or a concurrent ingest) may be adding the same seasons right now.
        .onConflict((oc) => oc.columns(['platform', 'id']).doNothing())
        .execute();
      added = true;
    }
    if (added) await announceDocumentChanges(trx, [DOCUMENT_KINDS.seasons], now);
  });
}

export interface SeasonRow extends SeasonDefinition {
  isOffseason: boolean;
}

/** A platform's seasons, oldest first. */
export async function listSeasons(db: Db, platform: Platform): Promise<SeasonRow[]> {
  const rows = await db
    .selectFrom('seasons')
    .select(['id', 'starts_at', 'is_offseason'])
    .where('platform', '=', platform)
    .orderBy('position')
    .execute();
  return rows.map(seasonRowOf);
}

/** A `seasons` row as the domain sees it (a module-level mapper: no closure made per call). */
function seasonRowOf(row: {
  id: string;
  starts_at: number | null;
  is_offseason: number;
}): SeasonRow {
  return { id: row.id, startsAt: row.starts_at, isOffseason: row.is_offseason === 1 };
}
