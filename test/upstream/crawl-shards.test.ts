/** MIRROR_SHARDS chooses the samples the crawl job of `serve` walks. */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { type TestApp } from '../helpers/app.ts';
import { createMirrorOf, startTestUpstream, type TestUpstream } from '../helpers/upstream.ts';
import { createMirror } from '../../src/upstream/mirror.ts';
import { mirrorCrawlJob } from '../../src/jobs/mirror-crawl.ts';

const SAMPLES = '/shards/:shard/samples';

for (const database of testDatabases) {
  describe(`the crawl job walks the shards of MIRROR_SHARDS (${database.name})`, () => {
    let upstream: TestUpstream;
    const apps: TestApp[] = [];

    before(async () => {
      upstream = await startTestUpstream(database, {}, 30);
    });
    after(async () => {
      for (const app of apps) await app.close();
      await upstream.stop();
    });

    const samplesAskedByAPass = async (env: Record<string, string>): Promise<number> => {
      const mirrorApp = await createMirrorOf(database, upstream, {
        ...env,
      });
      apps.push(mirrorApp);
      const before = upstream.received.get(SAMPLES) ?? 0;
      await mirrorCrawlJob(createMirror(mirrorApp)!).run(mirrorApp);
      return (upstream.received.get(SAMPLES) ?? 0) - before;
    };

    test('by default every platform with samples, with MIRROR_SHARDS only those named', async () => {
      assert.equal(await samplesAskedByAPass({}), 4);
      assert.equal(await samplesAskedByAPass({ MIRROR_SHARDS: 'pc-b' }), 1);
      assert.equal(await samplesAskedByAPass({ MIRROR_SHARDS: 'pc-a,console-b' }), 2);
    });
  });
}
