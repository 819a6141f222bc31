/**
 * The scheduled jobs' names, in the order a tick runs them (src/jobs/index.ts holds the jobs
 * themselves): what the command line lists and checks without loading any job.
 */
export const JOB_NAMES = ['seasons', 'retention', 'leaderboards', 'samples'] as const;

export type JobName = (typeof JOB_NAMES)[number];

export const isJobName = (name: string): name is JobName =>
  (JOB_NAMES as readonly string[]).includes(name);
