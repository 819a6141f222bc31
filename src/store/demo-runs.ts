/**
 * The record of demo loads: which seed, scale and instant each was generated for, and whether
 * it finished. What `serve` and `gamedata demo` consult to resume rather than start over.
 */
import type { Db } from './store.ts';

export interface DemoRun {
  seed: number;
  scale: number;
  /** The instant the data set is generated for (epoch ms). */
  now: number;
  startedAt: number;
  finishedAt: number | null;
}

/** Records a run when its first load starts; loading it again (a resume, a re-run) changes nothing here. */
export async function recordDemoRunStarted(
  db: Db,
  run: { seed: number; scale: number; now: number; startedAt: number },
): Promise<void> {
  await db
    .insertInto('demo_runs')
    .values({
      seed: run.seed,
      scale: run.scale,
      generated_for: run.now,
      started_at: run.startedAt,
      finished_at: null,
    })
    .onConflict((oc) => oc.columns(['seed', 'scale', 'generated_for']).doNothing())
    .execute();
}

/** Records that every match of the run is stored (the first time only). */
export async function recordDemoRunFinished(
  db: Db,
  run: { seed: number; scale: number; now: number; finishedAt: number },
): Promise<void> {
  await db
    .updateTable('demo_runs')
    .set({ finished_at: run.finishedAt })
    .where('seed', '=', run.seed)
    .where('scale', '=', run.scale)
    .where('generated_for', '=', run.now)
    .where('finished_at', 'is', null)
    .execute();
}

/** Every recorded run, the most recently started first. */
export async function listDemoRuns(db: Db): Promise<DemoRun[]> {
  const rows = await db.selectFrom('demo_runs').selectAll().orderBy('started_at', 'desc').execute();
  return rows.map((row) => ({
    seed: Number(row.seed),
    scale: Number(row.scale),
    now: Number(row.generated_for),
    startedAt: Number(row.started_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  }));
}
