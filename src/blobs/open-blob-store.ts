/**
 * Opens the blob store the config names, checked before anything is served: the directory
 * (leftovers of interrupted writes removed first), or the S3 bucket (its existence and our
 * access to it confirmed). A store that cannot be used throws BlobStoreUnavailableError with a
 * one-line message naming the bucket and the endpoint. The AWS SDK is loaded only for a bucket.
 */
import type { Config } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { directoryBlobStore } from './directory-blob-store.ts';
import { sweepTemporaryFiles } from './sweep-temporary-files.ts';

export async function openBlobStore(config: Pick<Config, 'blobStore'>): Promise<BlobStore> {
  const location = config.blobStore;
  if (location.kind === 'directory') {
    // File times are wall-clock times, whatever clock the service runs on.
    await sweepTemporaryFiles(location.root, { now: Date.now() });
    return directoryBlobStore(location.root);
  }
  const { checkBucket, createS3Client, s3BlobStore } = await import('./s3-blob-store.ts');
  const client = await createS3Client(location);
  try {
    await checkBucket(client, location);
  } catch (error) {
    client.destroy();
    throw error;
  }
  return s3BlobStore(client, location);
}
