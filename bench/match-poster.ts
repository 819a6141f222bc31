/**
 * The game servers of the jobs bench's `ingest` row, as a process of their own: it posts the
 * match files of a directory to `POST /ingest/matches`, and each line `post <n>` on its standard
 * input posts the next n of them, `posters` at a time, answered by a line
 * `POSTED {"statuses":[…]}` once all n are answered. It runs lowered to niceness 19 from its first
 * line on: sending 2 MB bodies is the client's work, and in the bench's own event loop (where it
 * ran before) it delayed the latency probe's timing of the very requests it measures — the probe
 * then blamed the server for the client's turns.
 *
 * Usage: match-poster.ts <origin> <ingest key> <directory of match files> <posters>
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { lowerProcessPriority } from '../src/jobs/job-priority.ts';

lowerProcessPriority(19);

const [origin, key, dir, postersText] = process.argv.slice(2) as [string, string, string, string];
const posters = Number(postersText);
const queue = fs
  .readdirSync(dir)
  .sort()
  .map((name) => path.join(dir, name));

async function post(file: string): Promise<number> {
  const response = await fetch(`${origin}/ingest/matches`, {
    method: 'POST',
    body: fs.readFileSync(file),
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  });
  await response.arrayBuffer();
  return response.status;
}

async function postNext(count: number): Promise<number[]> {
  const batch = queue.splice(0, count);
  const statuses: number[] = [];
  await Promise.all(
    Array.from({ length: posters }, async () => {
      for (let file = batch.shift(); file !== undefined; file = batch.shift()) {
        statuses.push(await post(file));
      }
    }),
  );
  return statuses;
}

// One request at a time from the bench: lines are handled in order.
let pending: Promise<void> = Promise.resolve();
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const count = Number(/^post (\d+)$/.exec(line.trim())?.[1] ?? NaN);
  if (!Number.isInteger(count)) return;
  pending = pending.then(async () => {
    const statuses = await postNext(count).catch(() => [] as number[]);
    process.stdout.write(`POSTED ${JSON.stringify({ statuses })}\n`);
  });
});
process.stdout.write('READY\n');
