/**
 * The process of one of `serve`'s ingest workers (prepare-process.ts starts it): it lowers every
 * thread it has to the niceness it is given — V8's compiler and collector threads included,
 * which a worker thread shares with the serving thread at the serving priority — then runs the
 * tasks that arrive on the socket at file descriptor 3 (frames.ts): the first frame sets the
 * worker up, each other one is a task, answered in a frame under its number. It ends when that
 * socket closes.
 */
import net from 'node:net';
import { lowerProcessPriority } from '../jobs/job-priority.ts';

// First, before anything but this module and Node's own is loaded (prepare-process.ts passes it).
lowerProcessPriority(Number(process.argv[2] ?? 0));

const { readFrames, writeFrame } = await import('./frames.ts');
// Nothing is served here: compressing on libuv's pool would only add thread switches.
(await import('./thread-gzip.ts')).gzipInPlace();
const { taskRunner } = await import('./prepare-tasks.ts');
const { reusableBuffers } = await import('./reusable-buffers.ts');
type Runner = ReturnType<typeof taskRunner>;
type Setup = Parameters<typeof taskRunner>[0];

/**
 * What a task frame's header holds; its buffers are the source and, when flagged, the telemetry
 * — or, with `attachTo`, the telemetry file for that stored match alone.
 */
interface TaskHeader {
  id: number;
  now: number;
  telemetry: boolean;
  attachTo?: string;
}

const channel = new net.Socket({ fd: 3, readable: true, writable: true });
let runner: Runner | null = null;
// A match's bytes land in a buffer kept for the next match once this one is stored or refused:
// nothing refers to them then (the outcome holds no view of them, the store keeps none). Two
// kept, for two matches in flight; a body of more than 8 MiB gets a buffer of its own.
const sources = reusableBuffers(2, 8 * 1_048_576);

readFrames<Setup | TaskHeader>(
  channel,
  ({ header, buffers }) => {
    if (runner === null) {
      runner = taskRunner(header as Setup);
      return;
    }
    const { id, now, telemetry, attachTo } = header as TaskHeader;
    const task =
      attachTo === undefined
        ? { source: buffers[0]!, ...(telemetry ? { telemetry: buffers[1]! } : {}), now }
        : { attachTo, telemetry: buffers[0]!, now };
    void runner.run(task).then(({ outcome }) => {
      if (outcome.kind === 'other' && outcome.source !== undefined) {
        const { source, ...rest } = outcome;
        writeFrame(channel, { id, outcome: rest, source: true }, [source]);
      } else {
        writeFrame(channel, { id, outcome, source: false });
        // Stored or refused, the file attached included (its blob was written before): no
        // view of the bytes is left.
        if (outcome.kind === 'stored' || outcome.kind === 'error') sources.give(buffers[0]!);
      }
    });
  },
  sources,
);

// The service closed the socket, or ended without closing it: nothing more will come.
channel.on('error', () => channel.destroy());
channel.on('close', () => {
  void (runner?.close() ?? Promise.resolve()).finally(() => process.exit(0));
});
