import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations describe past schemas, not today's types */

export async function up(db: Kysely<any>): Promise<void> {
  // Each demo load, recorded when it starts: an interrupted one is resumed with the same seed,
  // scale and instant instead of generating a different 14 days.
  await db.schema
    .createTable('demo_runs')
    .addColumn('seed', 'integer', (c) => c.notNull())
    .addColumn('scale', 'double precision', (c) => c.notNull())
    .addColumn('generated_for', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addPrimaryKeyConstraint('demo_runs_pk', ['seed', 'scale', 'generated_for'])
    .execute();

  // Set when a bulk load completes: the job then runs at its next tick and rebuilds what it
  // derived from data that was still arriving.
  await db.schema
    .alterTable('job_locks')
    .addColumn('rebuild_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // How many matches the list was drawn from (its window's matches then), so a rebuild knows
  // which lists were drawn before the rest of their window arrived.
  await db.schema
    .alterTable('sample_lists')
    .addColumn('drawn_from', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE sample_lists SET drawn_from = (SELECT count(*) FROM sample_matches WHERE sample_matches.sample_id = sample_lists.id)`.execute(
    db,
  );
}
