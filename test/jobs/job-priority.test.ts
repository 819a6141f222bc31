import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/runtime.ts';
import { execFileSync } from 'node:child_process';
import { JOBS, findJob } from '../../src/jobs/index.ts';
import { JOB_NAMES } from '../../src/jobs/job-names.ts';
import { buildProgram } from '../../src/cli/program.ts';
import { threadRunner } from '../../src/jobs/job-thread-runner.ts';
import { childProcessesOf, jobNiceOf } from '../../src/jobs/job-priority.ts';
import { runCliIn } from '../helpers/cli.ts';
import { freePageBytes } from '../helpers/sqlite-free-pages.ts';
import { openPreparePool } from '../../src/ingest/prepare-pool.ts';
import { openStore } from '../../src/store/store.ts';
import { sql } from 'kysely';

/** Niceness of every thread of this process, by thread id (Linux). */
function threadNiceness(): Map<number, number> {
  const niceness = new Map<number, number>();
  for (const task of fs.readdirSync('/proc/self/task')) {
    try {
      niceness.set(Number(task), os.getPriority(Number(task)));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return niceness;
}

const PRIORITY_MODULE = new URL('../../src/jobs/job-priority.ts', import.meta.url).href;

const linux = fs.existsSync('/proc/thread-self');
const skip = !linux
  ? 'thread priorities are set on Linux only'
  : os.getPriority() >= 19
    ? 'the tests already run at the lowest priority'
    : false;

/** Threads that came, or were lowered, to niceness `nice` since `before`. */
const loweredSince = (before: Map<number, number>, nice: number): number[] =>
  [...threadNiceness()]
    .filter(([tid, value]) => value === nice && before.get(tid) !== nice)
    .map(([tid]) => tid);

async function withStore(work: (dataDir: string) => Promise<void>): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-priority-'));
  try {
    await work(dataDir);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

test(
  'the job thread runs at JOB_NICE, and the serving thread keeps its priority',
  { skip },
  async () => {
    await withStore(async (dataDir) => {
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', JOB_NICE: '17' });
      const runtime = await openRuntime(config);
      const mainBefore = os.getPriority();
      const before = threadNiceness();
      const runner = threadRunner(config);
      try {
        await runner.run(findJob('seasons')!, runtime, { rebuild: false });
        // The job thread, and under tsx the loader thread it starts: threads of the job only.
        const lowered = loweredSince(before, 17);
        assert.ok(lowered.length >= 1, 'the job thread is lowered');
        assert.ok(
          lowered.every((tid) => !before.has(tid)),
          'no thread that existed before the job is lowered',
        );
        assert.equal(os.getPriority(), mainBefore, 'the serving thread is untouched');
      } finally {
        await runner.close();
        await runtime.close();
      }
    });
  },
);

test(
  'the job thread starts, and lowers itself, when its runner is made: before any run',
  { skip, timeout: 60_000 },
  async () => {
    await withStore(async (dataDir) => {
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', JOB_NICE: '16' });
      const before = threadNiceness();
      const runner = threadRunner(config);
      try {
        while (loweredSince(before, 16).length === 0) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        await runner.close();
      }
    });
  },
);

/** Niceness of every thread of process `pid`. */
function processNiceness(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).map((task) => os.getPriority(Number(task)));
}

test(
  "serve's prepare workers run in processes lowered whole to INGEST_NICE; the serving thread keeps its priority",
  { skip, timeout: 60_000 },
  async () => {
    await withStore(async (dataDir) => {
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', INGEST_NICE: '14' });
      assert.equal(config.ingestNice, 14);
      const mainBefore = os.getPriority();
      const before = threadNiceness();
      const childrenBefore = new Set(childProcessesOf('self'));
      const pool = openPreparePool(1, config, config.ingestNice, { config }, 'process');
      try {
        // Not a match: its bytes come back to be ingested here, once the worker has started.
        const source = Buffer.from('{"data":{"type":"match"}}');
        const outcome = await pool.prepare({ source, now: Date.now() }, true);
        assert.equal(outcome.kind, 'other');
        assert.equal(
          Buffer.from(outcome.kind === 'other' ? outcome.source! : []).toString(),
          source.toString(),
        );
        const started = childProcessesOf('self').filter((pid) => !childrenBefore.has(pid));
        assert.equal(started.length, 1, 'one worker process');
        const niceness = processNiceness(started[0]!);
        // Node's own threads (V8's compiler and collector helpers, libuv's) as well as its main.
        assert.ok(niceness.length > 4, `the worker's threads: ${niceness.length}`);
        assert.deepEqual(new Set(niceness), new Set([14]), 'every thread of the worker is lowered');
        assert.deepEqual(loweredSince(before, 14), [], 'no thread of this process is');
        assert.equal(os.getPriority(), mainBefore, 'the serving thread is untouched');
      } finally {
        await pool.close();
      }
      const left = childProcessesOf('self').filter((pid) => !childrenBefore.has(pid));
      assert.deepEqual(left, [], 'closing the pool ends its processes');
    });
  },
);

test(
  'a worker process that dies fails the task it held, and the next task gets a new one',
  { skip, timeout: 60_000 },
  async () => {
    await withStore(async (dataDir) => {
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      const childrenBefore = new Set(childProcessesOf('self'));
      const pool = openPreparePool(1, config, 0, { config }, 'process');
      const task = () => ({ source: Buffer.from('{"data":{}}'), now: Date.now() });
      try {
        assert.equal((await pool.prepare(task())).kind, 'other');
        const [first] = childProcessesOf('self').filter((pid) => !childrenBefore.has(pid));
        // Bytes that take the process tens of ms to receive and read, so that it still holds
        // them when it is killed: a small task could be answered before the signal lands.
        const large = Buffer.from(`{"data":"${'x'.repeat(32 * 1_048_576)}"}`);
        const held = pool.prepare({ source: large, now: Date.now() });
        process.kill(first!, 'SIGKILL');
        await assert.rejects(held, /an ingest worker process stopped \(SIGKILL\)/);
        assert.equal((await pool.prepare(task())).kind, 'other');
        const now = childProcessesOf('self').filter((pid) => !childrenBefore.has(pid));
        assert.equal(now.length, 1);
        assert.notEqual(now[0], first, 'a new process');
      } finally {
        await pool.close();
      }
    });
  },
);

test(
  'a pool started before its first match has its threads running and lowered, and then prepares',
  { skip, timeout: 60_000 },
  async () => {
    await withStore(async (dataDir) => {
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', INGEST_NICE: '13' });
      const before = threadNiceness();
      const pool = openPreparePool(2, config, config.ingestNice);
      try {
        pool.start();
        // No task yet: each thread bootstraps and lowers itself on its own.
        while (loweredSince(before, 13).length < 2) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const outcome = await pool.prepare({ source: Buffer.from('{"data":{}}'), now: Date.now() });
        assert.equal(outcome.kind, 'other');
      } finally {
        await pool.close();
      }
    });
  },
);

test('JOB_NICE=0 leaves the job thread at the priority of the process', { skip }, async () => {
  await withStore(async (dataDir) => {
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', JOB_NICE: '0' });
    const runtime = await openRuntime(config);
    const before = threadNiceness();
    const runner = threadRunner(config);
    try {
      await runner.run(findJob('seasons')!, runtime, { rebuild: false });
      assert.deepEqual(loweredSince(before, 19), []);
      const niceness = new Set(threadNiceness().values());
      assert.deepEqual([...niceness], [os.getPriority()]);
    } finally {
      await runner.close();
      await runtime.close();
    }
  });
});

test(
  "`jobs run` runs its job in a thread of its own, leaving the calling thread's priority",
  { skip },
  async () => {
    await withStore(async (dataDir) => {
      const mainBefore = os.getPriority();
      const ran = await runCliIn(dataDir, 'jobs', 'run', 'seasons');
      assert.equal(ran.exitCode, 0, ran.err.join('\n'));
      assert.match(ran.out.join('\n'), /^seasons: /);
      assert.equal(os.getPriority(), mainBefore);
    });
  },
);

test(
  '`jobs run` in a process of its own lowers that process to JOB_NICE and runs the job there',
  { skip },
  async () => {
    await withStore(async (dataDir) => {
      const lowered: number[] = [];
      const out: string[] = [];
      const err: string[] = [];
      const program = buildProgram(
        {
          env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent', JOB_NICE: '15' },
          out: (line) => out.push(line),
          err: (line) => err.push(line),
          interactive: false,
          lowerPriority: (nice) => lowered.push(nice),
        },
        async () => {},
      );
      const before = threadNiceness();
      await program.parseAsync(['node', 'gamedata', 'jobs', 'run', 'seasons']);
      assert.deepEqual(lowered, [15]);
      assert.deepEqual(err, []);
      assert.match(out.join('\n'), /^seasons: /);
      assert.deepEqual(loweredSince(before, 15), [], 'no job thread lowered itself: none started');
      // An unknown name is refused before anything is lowered or opened.
      process.exitCode = 0;
      await program.parseAsync(['node', 'gamedata', 'jobs', 'run', 'nope']);
      assert.equal(process.exitCode, 1);
      assert.match(err[0]!, /^No job 'nope'/);
      process.exitCode = 0;
      assert.deepEqual(lowered, [15]);
    });
  },
);

test('`jobs run` lowers itself to JOB_NICE before it loads and checks the config', async () => {
  const lowered: number[] = [];
  const program = buildProgram(
    {
      env: { JOB_NICE: '15', PORT: 'not a port' },
      out: () => {},
      err: () => {},
      interactive: false,
      lowerPriority: (nice) => lowered.push(nice),
    },
    async () => {},
  );
  await assert.rejects(program.parseAsync(['node', 'gamedata', 'jobs', 'run', 'seasons']), /PORT/);
  assert.deepEqual(lowered, [15]);
});

test("JOB_NICE read before the config gives the config's niceness, or none", () => {
  for (const raw of [undefined, '', '0', '7', '07', '19', '20', '-1', '7.5', ' 7', 'abc', '1e1']) {
    const early = jobNiceOf(raw);
    let configured: number | null;
    try {
      configured = loadConfig(raw === undefined ? {} : { JOB_NICE: raw }).jobNice;
    } catch {
      configured = null;
    }
    if (early !== null) assert.equal(early, configured, `JOB_NICE=${JSON.stringify(raw)}`);
  }
  assert.equal(jobNiceOf(undefined), 19);
  assert.equal(jobNiceOf('20'), null);
});

test(
  "SQLite's checkpoint thread runs at the niceness it is given, copies the log, and leaves the serving thread's priority alone",
  { skip, timeout: 60_000 },
  async () => {
    await withStore(async (dataDir) => {
      const file = path.join(dataDir, 'gamedata.sqlite');
      const store = await openStore(`sqlite:${file}`);
      const mainBefore = os.getPriority();
      const before = threadNiceness();
      const stop = store.checkpointInBackground!({ nice: 13 });
      try {
        while (loweredSince(before, 13).length === 0) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assert.ok(
          loweredSince(before, 13).every((tid) => !before.has(tid)),
          'only the checkpoint thread (and under tsx its loader thread) is lowered',
        );
        assert.equal(os.getPriority(), mainBefore, 'the serving thread is untouched');
        // Lowered, it still does its work: what a commit leaves in the log reaches the file.
        await sql`create table filler (b blob)`.execute(store.db);
        const target = fs.statSync(file).size + 1024 * 1024 - (await freePageBytes(store.db));
        await sql`insert into filler (b) values (${Buffer.alloc(1024 * 1024, 1)})`.execute(
          store.db,
        );
        const deadline = Date.now() + 10_000;
        while (fs.statSync(file).size < target && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        assert.ok(fs.statSync(file).size >= target, 'the log reached the file');
      } finally {
        await stop();
        await store.close();
      }
    });
  },
);

test(
  'lowering the process lowers every thread it has and the processes it started, and threads started later inherit it',
  { skip },
  () => {
    // In a child process: a lowered process cannot raise itself again.
    const script = `
    import fs from 'node:fs';
    import os from 'node:os';
    import { Worker } from 'node:worker_threads';
    import { spawn } from 'node:child_process';
    import { lowerProcessPriority } from ${JSON.stringify(PRIORITY_MODULE)};
    const helper = spawn('sleep', ['30'], { stdio: 'ignore' });
    await new Promise((resolve) => helper.once('spawn', resolve));
    const lowered = lowerProcessPriority(11);
    const helperNice = os.getPriority(helper.pid);
    helper.kill();
    const threads = fs.readdirSync('/proc/self/task').length;
    const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
    await new Promise((resolve) => worker.once('online', resolve));
    const niceness = fs.readdirSync('/proc/self/task').map((tid) => os.getPriority(Number(tid)));
    await worker.terminate();
    process.stdout.write(JSON.stringify({ lowered, threads, niceness, helperNice }));
  `;
    const { lowered, threads, niceness, helperNice } = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        encoding: 'utf8',
      }),
    ) as { lowered: number; threads: number; niceness: number[]; helperNice: number };
    assert.ok(lowered >= 2);
    assert.equal(helperNice, 11, 'a process it had started is lowered too');
    assert.ok(niceness.length > threads, 'the worker added threads');
    assert.deepEqual([...new Set(niceness)], [11]);
  },
);

test('the job names the command line lists are the jobs, in tick order', () => {
  assert.deepEqual(
    JOBS.map((job) => job.name),
    [...JOB_NAMES],
  );
});
