import fs from 'node:fs';
import path from 'node:path';
import type { BlobStore } from './blob-store.ts';

/**
 * A blob store in a local directory. Writes go to a temporary file renamed into place, so a
 * reader never sees half a file and a crash leaves no truncated blob behind.
 */
export function directoryBlobStore(root: string): BlobStore {
  const resolve = (key: string): string => {
    const file = path.resolve(root, key);
    if (!file.startsWith(path.resolve(root) + path.sep))
      throw new Error(`blob key escapes the store: ${key}`);
    return file;
  };
  return {
    async put(key, bytes) {
      const file = resolve(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
      await fs.promises.writeFile(temporary, bytes);
      await fs.promises.rename(temporary, file);
    },
    async get(key) {
      const file = resolve(key);
      try {
        const handle = await fs.promises.open(file, 'r');
        const { size } = await handle.stat();
        return { stream: handle.createReadStream(), size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await fs.promises.rm(resolve(key), { force: true });
    },
  };
}
