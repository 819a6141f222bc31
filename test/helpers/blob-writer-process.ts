/**
 * A process that writes large blobs through a directory blob store until it is killed, for the
 * test of what a kill -9 in the middle of a write leaves behind. Argument: the store's root.
 * Prints the key of each blob once it is in place.
 */
import { directoryBlobStore } from '../../src/blobs/directory-blob-store.ts';

const root = process.argv[2]!;
const store = directoryBlobStore(root);
/** Large enough that a write takes long enough to be caught in the middle. */
const BYTES = 48 * 1024 * 1024;
const bytes = Buffer.alloc(BYTES, 7);
for (let i = 0; ; i++) {
  const key = `bluehole-pubg/pc-b/2026/11/20/12/00/blob-${i}-telemetry.json`;
  await store.put(key, bytes);
  process.stdout.write(`${key}\n`);
}
