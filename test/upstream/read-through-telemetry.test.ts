import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { createMirrorOf, startTestUpstream, type TestUpstream } from '../helpers/upstream.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { findStoredMatch } from '../../src/store/ingest-writes.ts';

const DAY_MS = 86_400_000;
const MATCH_ROUTE = '/shards/:shard/matches/:matchId';

for (const database of testDatabases) {
  describe(`telemetry of a match archived without it is read through alone (${database.name})`, () => {
    let upstream: TestUpstream;
    let mirror: TestApp;
    const createdAt = (): string => new Date(upstream.t.clock.now() - DAY_MS).toISOString();

    before(async () => {
      upstream = await startTestUpstream(database);
      mirror = await createMirrorOf(database, upstream);
    });
    after(async () => {
      await mirror.close();
      await upstream.stop();
    });

    test('a client asking for the file gets it once the upstream has it, byte for byte', async () => {
      const match = makeMatchInput({
        seed: 'late file',
        telemetry: true,
        // pc-a has one region: a document without telemetry names its region by that alone.
        overrides: { createdAt: createdAt(), platformShard: 'pc-a', regionShard: 'pc-a' },
      });
      await ingestMatch(upstream.t, match);
      // The upstream's file is not there (yet) when the mirror archives the match.
      const key = (await findStoredMatch(upstream.t.store.db, match.id))!.telemetryKey!;
      const blob = await upstream.t.blobs.get(key);
      const bytes = Buffer.concat(await blob!.stream.toArray());
      await upstream.t.blobs.delete(key);
      const path = `/shards/pc-a/matches/${match.id}`;
      assert.equal((await mirror.app.inject({ url: path })).statusCode, 200);
      assert.equal((await findStoredMatch(mirror.store.db, match.id))?.telemetryKey, null);

      await upstream.t.blobs.put(key, bytes);
      const document = (await upstream.t.app.inject({ url: path })).json();
      const asset = document.included.find((r: { type: string }) => r.type === 'asset');
      const telemetryPath = String(asset.attributes.URL).slice(upstream.url.length);
      upstream.received.clear();

      const served = await mirror.app.inject({ url: telemetryPath });
      assert.equal(served.statusCode, 200);
      const original = await fetch(`${upstream.url}${telemetryPath}`).then((r) => r.text());
      assert.equal(served.body, original);
      assert.equal(upstream.received.get(MATCH_ROUTE), 1, 'its match document asked once');
      const archived = await mirror.app.inject({ url: path });
      const upstreamDocument = await fetch(`${upstream.url}${path}`).then((r) => r.text());
      assert.equal(archived.body, upstreamDocument.replaceAll(upstream.url, TEST_BASE_URL));
    });

    test('the file of a match not held at all is a 404 that asks nothing upstream', async () => {
      upstream.received.clear();
      const unknown = '/telemetry/bluehole-pubg/pc-b/2026/11/20/12/00/no-such-asset-telemetry.json';
      assert.equal((await mirror.app.inject({ url: unknown })).statusCode, 404);
      assert.equal(upstream.received.size, 0);
    });
  });
}
