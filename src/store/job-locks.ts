import type { Db } from './store.ts';

export interface JobState {
  name: string;
  owner: string | null;
  lockedUntil: number;
  lastStartedAt: number | null;
  lastFinishedAt: number | null;
  lastError: string | null;
  /** A completed load asked for a rebuild that has not started yet. */
  rebuildRequested: boolean;
}

/**
 * Takes the job's lease for `leaseMs` if nobody holds it (or the holder's lease ran out, e.g.
 * it crashed), or this owner still holds it from a run whose release never reached the
 * database (it was lost mid-run): an owner runs one job at a time, so that run is over. One
 * conditional UPDATE decides, so of several instances racing exactly one wins, on SQLite and
 * PostgreSQL alike. Returns whether this owner got it.
 */
export async function acquireJobLease(
  db: Db,
  options: { name: string; owner: string; now: number; leaseMs: number },
): Promise<boolean> {
  await db
    .insertInto('job_locks')
    .values({ name: options.name, owner: null, locked_until: 0 })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const result = await db
    .updateTable('job_locks')
    .set({
      owner: options.owner,
      locked_until: options.now + options.leaseMs,
      last_started_at: options.now,
    })
    .where('name', '=', options.name)
    .where((eb) => eb.or([eb('locked_until', '<=', options.now), eb('owner', '=', options.owner)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives the lease back and records how the run ended (error message or null). */
export async function releaseJobLease(
  db: Db,
  options: { name: string; owner: string; now: number; error: string | null },
): Promise<void> {
  await db
    .updateTable('job_locks')
    .set({ owner: null, locked_until: 0, last_finished_at: options.now, last_error: options.error })
    .where('name', '=', options.name)
    .where('owner', '=', options.owner)
    .execute();
}

export async function jobState(db: Db, name: string): Promise<JobState | null> {
  const row = await db
    .selectFrom('job_locks')
    .selectAll()
    .where('name', '=', name)
    .executeTakeFirst();
  return row
    ? {
        name: row.name,
        owner: row.owner,
        lockedUntil: row.locked_until,
        lastStartedAt: row.last_started_at,
        lastFinishedAt: row.last_finished_at,
        lastError: row.last_error,
        rebuildRequested: Number(row.rebuild_requested) === 1,
      }
    : null;
}

/** Asks these jobs to rebuild at their next tick (they may not have run yet: the row is made). */
export async function requestJobRebuilds(db: Db, names: readonly string[]): Promise<void> {
  for (const name of names) {
    await db
      .insertInto('job_locks')
      .values({ name, owner: null, locked_until: 0, rebuild_requested: 1 })
      .onConflict((oc) => oc.column('name').doUpdateSet({ rebuild_requested: 1 }))
      .execute();
  }
}

/**
 * Takes the job's pending rebuild request, if any (call it holding the lease): returns whether
 * there was one. A request made while the run is under way stays for the next run.
 */
export async function takeRebuildRequest(db: Db, name: string): Promise<boolean> {
  const result = await db
    .updateTable('job_locks')
    .set({ rebuild_requested: 0 })
    .where('name', '=', name)
    .where('rebuild_requested', '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
