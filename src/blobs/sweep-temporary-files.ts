/**
 * Removes what interrupted writes of a directory blob store left behind: a writer killed between
 * writing its temporary file and renaming it into place (kill -9, power loss) would otherwise
 * leave the file forever. Run when the store opens; safe while other processes write to the same
 * directory, because a temporary file is removed only when its writer is certainly gone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  TEMPORARY_DIR,
  isThisProcess,
  temporaryFileWriter,
  type TemporaryFileWriter,
} from './directory-blob-store.ts';

/**
 * Age (by modification time) past which a temporary file is abandoned whoever wrote it: one write
 * of a telemetry file takes seconds, so an hour leaves a wide margin for slow disks, and covers
 * writers on other hosts of a shared volume and pids reused since.
 */
export const ABANDONED_AFTER_MS = 60 * 60_000;

/** `<file>.<pid>.<epoch ms>.tmp`, beside the blob: the temporary files of versions before `.partial/`. */
const LEGACY_NAME = /\.(\d+)\.\d+\.tmp$/;

export interface SweepOptions {
  /**
   * Wall-clock now, epoch ms, compared with file modification times — not the service clock,
   * which a CLI run may have set elsewhere in time.
   */
  now: number;
  /** This host's name (default: os.hostname()). */
  hostname?: string;
  /** Whether a process of this host runs (default: signal 0). */
  isRunning?: (pid: number) => boolean;
}

/** True when a process with this pid exists on this host (EPERM: it does, owned by another user). */
export function processIsRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes abandoned temporary files under `root` and returns how many. A file is abandoned when
 * it is older than ABANDONED_AFTER_MS, or when it was written on this host by a process that is
 * no longer running (or by an earlier process with this process's pid). The first sweep of a
 * store written by an earlier version (no `.partial/` yet) also walks the tree once for the
 * temporary files that version left beside the blobs.
 */
export async function sweepTemporaryFiles(root: string, options: SweepOptions): Promise<number> {
  const hostname = options.hostname ?? os.hostname();
  const isRunning = options.isRunning ?? processIsRunning;
  const writerIsGone = (writer: TemporaryFileWriter): boolean => {
    if (writer.hostname !== hostname) return false; // another host's pids mean nothing here
    if (writer.pid === process.pid) return !isThisProcess(writer, hostname);
    return !isRunning(writer.pid);
  };

  const temporaryDir = path.join(root, TEMPORARY_DIR);
  let candidates = await readTemporaryDir(temporaryDir);
  if (candidates === null) {
    candidates = await legacyTemporaryFiles(root, hostname);
  }

  let removed = 0;
  for (const { file, writer } of candidates) {
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat === null) continue; // renamed into place or removed meanwhile
    if (options.now - stat.mtimeMs <= ABANDONED_AFTER_MS && !writerIsGone(writer)) continue;
    await fs.promises.rm(file, { force: true });
    removed++;
  }
  return removed;
}

interface Candidate {
  file: string;
  writer: TemporaryFileWriter;
}

/** The temporary files in `.partial/`, or null when the directory does not exist (yet). */
async function readTemporaryDir(temporaryDir: string): Promise<Candidate[] | null> {
  let names: string[];
  try {
    names = await fs.promises.readdir(temporaryDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const candidates: Candidate[] = [];
  for (const name of names) {
    const writer = temporaryFileWriter(name);
    if (writer !== null) candidates.push({ file: path.join(temporaryDir, name), writer });
  }
  return candidates;
}

/**
 * Temporary files of the layout before `.partial/`, anywhere in the tree. Walked once: the
 * `.partial/` directory made afterwards marks the store as swept.
 */
async function legacyTemporaryFiles(root: string, hostname: string): Promise<Candidate[]> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const candidates: Candidate[] = [];
  for (const entry of entries) {
    const match = entry.isFile() ? LEGACY_NAME.exec(entry.name) : null;
    if (match === null) continue;
    // Those versions ran on one host: the pid is this host's; no process instance was recorded.
    const writer = { hostname, pid: Number(match[1]), instance: '' };
    candidates.push({ file: path.join(entry.parentPath, entry.name), writer });
  }
  await fs.promises.mkdir(path.join(root, TEMPORARY_DIR), { recursive: true });
  return candidates;
}
