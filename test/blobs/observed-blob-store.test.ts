import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { directoryBlobStore } from '../../src/blobs/directory-blob-store.ts';
import { observedBlobStore, type BlobOperation } from '../../src/blobs/observed-blob-store.ts';

test('failures are reported and still reach the caller; successes are not reported', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-observed-'));
  try {
    const failures: BlobOperation[] = [];
    const healthy = observedBlobStore(directoryBlobStore(path.join(dir, 'ok')), (operation) =>
      failures.push(operation),
    );
    await healthy.put('a/b.gz', Buffer.from('bytes'));
    assert.equal((await healthy.get('a/b.gz'))?.size, 5);
    assert.equal(await healthy.get('absent.gz'), null);
    await healthy.delete('a/b.gz');
    assert.equal(failures.length, 0);

    // A store whose root is a file: every write fails for real (ENOTDIR).
    fs.writeFileSync(path.join(dir, 'file'), '');
    const broken = observedBlobStore(directoryBlobStore(path.join(dir, 'file')), (operation) =>
      failures.push(operation),
    );
    await assert.rejects(broken.put('a/b.gz', Buffer.from('bytes')), /ENOTDIR|EEXIST/);
    await assert.rejects(broken.get('../escape.gz'));
    assert.deepEqual(failures, ['put', 'get']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
