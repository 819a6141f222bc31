/**
 * A worker thread of the prepare pool: prepares the matches it is sent (prepare-match.ts) and
 * answers each with its outcome, under the task's number.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { prepareMatch, type PrepareConfig, type PrepareTask } from './prepare-match.ts';

const config = (workerData as { config: PrepareConfig }).config;

parentPort!.on('message', (message: { id: number; task: PrepareTask }) => {
  void prepareMatch(message.task, config).then((outcome) =>
    parentPort!.postMessage({ id: message.id, outcome }),
  );
});
