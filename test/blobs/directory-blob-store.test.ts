/**
 * The directory blob store: files appear whole (written in `.partial/`, renamed into place), its
 * failures are BlobStoreUnavailableErrors, and temporary files left by writers that were killed
 * are removed when a store opens — never those of a writer that may still be writing, in this
 * process, another process of this host (`serve` beside a CLI ingest) or another host.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  TEMPORARY_DIR,
  directoryBlobStore,
  temporaryFileName,
} from '../../src/blobs/directory-blob-store.ts';
import { openBlobStore } from '../../src/blobs/open-blob-store.ts';
import { ABANDONED_AFTER_MS, sweepTemporaryFiles } from '../../src/blobs/sweep-temporary-files.ts';
import { BlobStoreUnavailableError } from '../../src/blobs/blob-store.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KEY = 'bluehole-pubg/pc-b/2026/11/20/12/00/a-telemetry.json';

function tempRoot(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-dir-blobs-'));
}

/** The pid of a process that has exited: a writer that is certainly gone. */
function deadPid(): number {
  const pid = Number(
    execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']),
  );
  assert.throws(() => process.kill(pid, 0), /ESRCH/);
  return pid;
}

/** Writes a file and sets its modification time `ageMs` in the past. */
function leave(file: string, ageMs = 0): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'partial');
  const at = new Date(Date.now() - ageMs);
  fs.utimesSync(file, at, at);
  return file;
}

const listed = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

test('files are stored whole, read back, deleted; absent keys are null', async () => {
  const root = tempRoot();
  try {
    const store = directoryBlobStore(root);
    await store.put(KEY, Buffer.from('gzip bytes'));
    assert.deepEqual(listed(path.join(root, TEMPORARY_DIR)), [], 'no temporary file left');
    const blob = (await store.get(KEY))!;
    assert.equal(blob.size, 10);
    const chunks: Buffer[] = [];
    for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
    assert.equal(Buffer.concat(chunks).toString(), 'gzip bytes');
    await store.delete(KEY);
    await store.delete(KEY);
    assert.equal(await store.get(KEY), null);
    await assert.rejects(store.put(`${TEMPORARY_DIR}/x`, Buffer.from('x')), /outside the store/);
    await assert.rejects(store.get('../escape'), /outside the store/);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a directory the store made once and that was removed since is made again', async () => {
  const root = tempRoot();
  try {
    const store = directoryBlobStore(root);
    await store.put(KEY, Buffer.from('first'));
    // The store remembers the directories it made; someone removes them, blobs and all.
    fs.rmSync(path.join(root, 'bluehole-pubg'), { recursive: true });
    fs.rmSync(path.join(root, TEMPORARY_DIR), { recursive: true });
    await store.put(KEY, Buffer.from('second'));
    assert.equal(fs.readFileSync(path.join(root, KEY), 'utf8'), 'second');
    assert.deepEqual(listed(path.join(root, TEMPORARY_DIR)), []);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a store that cannot write fails with BlobStoreUnavailableError and leaves nothing', async () => {
  const root = tempRoot();
  try {
    // A file where the key's directory should be: the write fails half-way through its steps.
    fs.writeFileSync(path.join(root, 'bluehole-pubg'), 'in the way');
    const store = directoryBlobStore(root);
    await assert.rejects(store.put(KEY, Buffer.from('x')), BlobStoreUnavailableError);
    assert.deepEqual(listed(path.join(root, TEMPORARY_DIR)), []);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('the sweep removes what writers that are gone left, and keeps what may still be written', async () => {
  const root = tempRoot();
  try {
    const partial = path.join(root, TEMPORARY_DIR);
    const host = os.hostname();
    const dead = deadPid();
    const running = process.ppid; // the test runner: alive, and not this process
    const old = ABANDONED_AFTER_MS + 60_000;
    const name = (hostname: string, pid: number, instance = 'abcd0123') =>
      `${encodeURIComponent(hostname)}~${pid}~${instance}~0123456789ab.tmp`;
    const removed = [
      leave(path.join(partial, name(host, dead))),
      leave(path.join(partial, name(host, process.pid, 'deadbeef'))), // an earlier process, same pid
      leave(path.join(partial, name(host, running, '01')), old),
      leave(path.join(partial, name('other-host', running, '01')), old),
    ];
    const kept = [
      leave(path.join(partial, temporaryFileName(host))), // this very process
      leave(path.join(partial, name(host, running))),
      leave(path.join(partial, name('other-host', dead))), // its pids mean nothing here
      leave(path.join(root, KEY), old), // a blob, however old
    ];
    const count = await sweepTemporaryFiles(root, { now: Date.now() });
    for (const file of removed) assert.equal(fs.existsSync(file), false, `${file} removed`);
    for (const file of kept) assert.equal(fs.existsSync(file), true, `${file} kept`);
    assert.equal(count, removed.length);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('the first sweep of a store of an earlier version removes the temporary files beside its blobs', async () => {
  const root = tempRoot();
  try {
    const dir = path.join(root, 'telemetry/pc-b/2026/11/20');
    const blob = leave(path.join(dir, 'a-telemetry.json.gz'));
    const gone = leave(path.join(dir, `b-telemetry.json.gz.${deadPid()}.1795000000000.tmp`));
    const stale = leave(
      path.join(dir, `c-telemetry.json.gz.${process.ppid}.1795000000000.tmp`),
      ABANDONED_AFTER_MS * 2,
    );
    const live = leave(path.join(dir, `d-telemetry.json.gz.${process.ppid}.1795000000000.tmp`));
    await openBlobStore({ blobStore: { kind: 'directory', root } });
    assert.equal(fs.existsSync(gone), false);
    assert.equal(fs.existsSync(stale), false);
    assert.equal(fs.existsSync(live), true, 'its writer may still run');
    assert.equal(fs.existsSync(blob), true);
    assert.ok(fs.existsSync(path.join(root, TEMPORARY_DIR)), 'the walk is done once');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

/** Starts the writer process and kills it (kill -9) while a temporary file is being written. */
async function killMidWrite(root: string): Promise<string[]> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/helpers/blob-writer-process.ts', root],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let written = '';
  child.stdout.on('data', (chunk: Buffer) => (written += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const partial = path.join(root, TEMPORARY_DIR);
  const deadline = Date.now() + 30_000;
  try {
    while (Date.now() < deadline && child.exitCode === null) {
      if (listed(partial).length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
  return written.split('\n').filter(Boolean);
}

test('a writer killed with kill -9 mid-write leaves a temporary file, removed when the store next opens', async () => {
  const root = tempRoot();
  try {
    let complete: string[] = [];
    // The kill can land just after a rename; then try again (rarely needed).
    for (
      let attempt = 0;
      attempt < 5 && listed(path.join(root, TEMPORARY_DIR)).length === 0;
      attempt++
    ) {
      complete = complete.concat(await killMidWrite(root));
    }
    assert.equal(
      listed(path.join(root, TEMPORARY_DIR)).length,
      1,
      'the kill left a temporary file',
    );

    const store = await openBlobStore({ blobStore: { kind: 'directory', root } });
    assert.deepEqual(listed(path.join(root, TEMPORARY_DIR)), [], 'removed: its writer is gone');
    // Every blob in place is whole: a kill never leaves a truncated file under a key.
    const files = (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
    for (const key of complete) assert.ok(files.includes(key), `${key} is in place`);
    for (const key of files) assert.equal((await store.get(key))!.size, 48 * 1024 * 1024, key);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
