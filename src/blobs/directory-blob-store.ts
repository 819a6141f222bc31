import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { BlobStoreUnavailableError, type BlobStore } from './blob-store.ts';

/**
 * Where files being written wait, inside the store's root so that the rename into place stays on
 * one file system (atomic). One directory, so that leftovers of killed writers are found without
 * walking the whole tree (sweep-temporary-files.ts). No key starts with a dot.
 */
export const TEMPORARY_DIR = '.partial';

/**
 * Names this process apart from an earlier one with the same pid on the same host — a container
 * restarted after a kill runs as pid 1 again.
 */
const PROCESS_INSTANCE = crypto.randomBytes(4).toString('hex');

/** Who wrote a temporary file, read from its name. */
export interface TemporaryFileWriter {
  hostname: string;
  pid: number;
  instance: string;
}

/**
 * A temporary file's name: `<host>~<pid>~<instance>~<random>.tmp`. The writer's host, pid and
 * process instance tell a later sweep whether it may still be running (two processes share
 * DATA_DIR, e.g. `serve` and a CLI ingest; several hosts may share one network volume).
 */
export function temporaryFileName(hostname: string, pid = process.pid): string {
  const random = crypto.randomBytes(6).toString('hex');
  return `${encodeURIComponent(hostname)}~${pid}~${PROCESS_INSTANCE}~${random}.tmp`;
}

/** The writer named by a temporary file's name, or null for any other name. */
export function temporaryFileWriter(name: string): TemporaryFileWriter | null {
  const match = /^([^~]+)~(\d+)~([0-9a-f]+)~[0-9a-f]+\.tmp$/.exec(name);
  if (match === null) return null;
  return { hostname: decodeURIComponent(match[1]!), pid: Number(match[2]), instance: match[3]! };
}

/** Whether a writer is this very process. */
export function isThisProcess(writer: TemporaryFileWriter, hostname: string): boolean {
  return (
    writer.hostname === hostname &&
    writer.pid === process.pid &&
    writer.instance === PROCESS_INSTANCE
  );
}

/**
 * A blob store in a local directory. Writes go to a temporary file in `.partial/` renamed into
 * place, so a reader never sees half a file and a crash leaves no truncated blob behind (only a
 * temporary file, removed by the next sweep). Keys are paths under the root.
 */
export function directoryBlobStore(root: string): BlobStore {
  const base = path.resolve(root);
  const temporaryDir = path.join(base, TEMPORARY_DIR);
  const hostname = os.hostname();
  const directories = madeDirectories();
  const resolve = (key: string): string => {
    const file = path.resolve(base, key);
    if (!file.startsWith(base + path.sep) || file.startsWith(temporaryDir + path.sep))
      throw new Error(`blob key outside the store: ${key}`);
    return file;
  };
  const unavailable = (operation: 'put' | 'get' | 'delete', key: string, error: unknown) =>
    new BlobStoreUnavailableError(
      operation,
      `blob directory ${base}: ${operation} ${key} failed: ${(error as Error).message}`,
    );
  return {
    async put(key, bytes) {
      const file = resolve(key);
      const temporary = path.join(temporaryDir, temporaryFileName(hostname));
      const write = async (): Promise<void> => {
        await directories.make(temporaryDir);
        await directories.make(path.dirname(file));
        await fs.promises.writeFile(temporary, bytes);
        await fs.promises.rename(temporary, file);
      };
      try {
        try {
          await write();
        } catch (error) {
          // A directory made earlier was removed meanwhile (by hand): made again, once.
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          directories.forget();
          await write();
        }
      } catch (error) {
        await fs.promises.rm(temporary, { force: true }).catch(() => undefined);
        throw unavailable('put', key, error);
      }
    },
    async get(key) {
      const file = resolve(key);
      try {
        const handle = await fs.promises.open(file, 'r');
        try {
          const { size } = await handle.stat();
          return { stream: handle.createReadStream(), size };
        } catch (error) {
          await handle.close();
          throw error;
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw unavailable('get', key, error);
      }
    },
    async delete(key) {
      const file = resolve(key);
      try {
        await fs.promises.rm(file, { force: true });
      } catch (error) {
        throw unavailable('delete', key, error);
      }
    },
  };
}

/**
 * Directories this store has made, so that a put makes each once rather than asking the file
 * system for every file (a `mkdir` per file cost 3% of an ingest). Bounded: a long-running
 * process that has made very many directories (one per day and platform) starts over.
 */
function madeDirectories(limit = 4096) {
  const made = new Set<string>();
  return {
    async make(dir: string): Promise<void> {
      if (made.has(dir)) return;
      await fs.promises.mkdir(dir, { recursive: true });
      if (made.size >= limit) made.clear();
      made.add(dir);
    },
    forget(): void {
      made.clear();
    },
  };
}
