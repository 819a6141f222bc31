/**
 * Telemetry in S3-compatible object storage, end to end against a real S3 API (s3rver) on
 * 127.0.0.1: ingest puts the file at its URL's path, the API streams it, the bucket serves it at
 * the asset URL itself, retention deletes it — and an object store that stops or hangs refuses
 * an ingest cleanly and turns telemetry requests into bounded 503s, never a crash.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { startS3Server, useS3rverCredentials, type S3Server } from '../helpers/s3-server.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import type { MatchInput } from '../../src/ingest/match-input.ts';
import { purgeExpired } from '../../src/jobs/purge-expired.ts';
import { BlobStoreUnavailableError } from '../../src/blobs/blob-store.ts';

const DAY_MS = 86_400_000;
const BUCKET = 'telemetry';
const PREFIX = 'gamedata/v1';
/** S3_TIMEOUT_MS of these tests: two attempts of it bound a request to a dead or frozen store. */
const TIMEOUT_MS = 400;
/** The "bounded time", with a wide margin for a busy machine. */
const BOUND_MS = 5000;
const WRITTEN_TABLES = ['matches', 'rosters', 'participants', 'player_matches', 'match_documents'];

useS3rverCredentials();

/** GET with node:http, which (unlike fetch) hands over the bytes as sent: gzip stays gzip. */
function rawGet(
  url: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject);
  });
}

let s3: S3Server;
before(async () => {
  s3 = await startS3Server([BUCKET]);
});
after(() => s3.close());

for (const database of testDatabases) {
  describe(`telemetry in an S3 bucket (${database.name})`, () => {
    let t: TestApp;
    let bucketBase: string;
    let createdAt: number;
    const seed = (name: string): string => `${database.name}-s3-${name}`;

    async function assetUrl(matchId: string, shard = 'pc-b'): Promise<string> {
      const document = (await t.app.inject({ url: `/shards/${shard}/matches/${matchId}` })).json();
      const asset = document.included.find((r: { type: string }) => r.type === 'asset');
      return asset.attributes.URL as string;
    }

    async function storedKey(matchId: string): Promise<string | null | undefined> {
      const row = await t.store.db
        .selectFrom('matches')
        .select('telemetry_key')
        .where('id', '=', matchId)
        .executeTakeFirst();
      return row?.telemetry_key;
    }

    async function rowsOf(matchId: string): Promise<number> {
      let rows = 0;
      for (const table of WRITTEN_TABLES) {
        const column = table === 'matches' ? 'id' : 'match_id';
        const found = await t.store.db
          .selectFrom(table as 'matches')
          .select(column as 'id')
          .where(column as 'id', '=', matchId)
          .execute();
        rows += found.length;
      }
      return rows;
    }

    function matchWithTelemetry(name: string): MatchInput {
      return makeMatchInput({
        seed: seed(name),
        telemetry: true,
        overrides: { createdAt: new Date(createdAt).toISOString() },
      });
    }

    before(async () => {
      bucketBase = `${s3.endpoint}/${BUCKET}/${PREFIX}`;
      t = await createTestApp(database, {
        BLOB_STORE_URL: `s3://${BUCKET}/${PREFIX}/`,
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        S3_TIMEOUT_MS: String(TIMEOUT_MS),
        TELEMETRY_BASE_URL: bucketBase,
      });
      createdAt = t.clock.now() - DAY_MS;
    });
    after(() => t.close());

    test('ingest puts the file in the bucket at its URL, then API and bucket serve the same bytes', async () => {
      const match = matchWithTelemetry('served');
      assert.equal((await ingestMatch(t, match)).status, 'ingested');

      // The asset URL is TELEMETRY_BASE_URL + the stored key, whatever shard spelling was asked.
      const key = (await storedKey(match.id))!;
      assert.match(
        key,
        /^bluehole-pubg\/pc-b\/\d{4}\/\d\d\/\d\d\/\d\d\/\d\d\/[^/]+-telemetry\.json$/,
      );
      const url = await assetUrl(match.id);
      assert.equal(url, `${bucketBase}/${key}`);
      assert.equal(await assetUrl(match.id, 'steam'), url);
      assert.deepEqual(await s3.head(BUCKET, `${PREFIX}/${key}`), {
        contentEncoding: 'gzip',
        contentType: 'application/json',
      });

      const throughApi = await t.app.inject({
        url: `/telemetry/${key}`,
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.equal(throughApi.statusCode, 200);
      assert.equal(throughApi.headers['content-encoding'], 'gzip');
      assert.deepEqual(
        JSON.parse(zlib.gunzipSync(throughApi.rawPayload).toString()),
        match.telemetry,
      );
      const identity = await t.app.inject({ url: `/telemetry/${key}` });
      assert.equal(identity.statusCode, 200);
      assert.equal(identity.headers['content-encoding'], undefined);
      assert.deepEqual(identity.json(), match.telemetry);

      const direct = await rawGet(url);
      assert.equal(direct.status, 200);
      assert.equal(direct.headers['content-encoding'], 'gzip');
      assert.equal(direct.headers['content-type'], 'application/json');
      assert.deepEqual(direct.body, throughApi.rawPayload);
    });

    test('an object store stopped during ingest refuses the match and writes nothing', async () => {
      const match = matchWithTelemetry('store-down');
      const objects = await s3.list(BUCKET);
      await s3.kill();
      try {
        await assert.rejects(ingestMatch(t, match), BlobStoreUnavailableError);
      } finally {
        await s3.restart();
      }
      assert.equal(await rowsOf(match.id), 0, 'no rows of the refused match');
      assert.deepEqual(await s3.list(BUCKET), objects, 'no object');

      assert.equal(
        (await ingestMatch(t, match)).status,
        'ingested',
        'ingest works once it is back',
      );
      assert.ok(await s3.head(BUCKET, `${PREFIX}/${(await storedKey(match.id))!}`));
    });

    test('a transaction that fails after the upload leaves no object behind', async () => {
      const match = matchWithTelemetry('rolled-back');
      const player = match.rosters[0]!.participants[0]!;
      // A row in the way of a player's match-list entry (its key, the match's time included):
      // the database refuses the ingest transaction after the file is in the bucket.
      const poison = {
        platform: match.platformShard,
        account_id: player.playerId,
        match_id: match.id,
        created_at: Date.parse(match.createdAt),
        game_mode: match.gameMode,
        season_id: 'poison',
        is_custom: 0,
      };
      await t.store.db.insertInto('player_matches').values(poison).execute();
      const objects = await s3.list(BUCKET);
      await assert.rejects(
        ingestMatch(t, match),
        (error) => !(error instanceof BlobStoreUnavailableError),
      );
      assert.deepEqual(await s3.list(BUCKET), objects, 'the uploaded file is deleted again');
      await t.store.db.deleteFrom('player_matches').where('match_id', '=', match.id).execute();
      assert.equal(await rowsOf(match.id), 0);

      assert.equal((await ingestMatch(t, match)).status, 'ingested');
      assert.equal((await s3.list(BUCKET)).length, objects.length + 1);
    });

    test('a stopped object store answers telemetry requests 503 JSON:API with Retry-After, and 200 once back', async () => {
      for (const fault of ['killed', 'frozen'] as const) {
        // A file of its own per fault: once served, a file is answered from memory, store or not.
        const match = matchWithTelemetry(`serve-down-${fault}`);
        await ingestMatch(t, match);
        const path = `/telemetry/${(await storedKey(match.id))!}`;
        if (fault === 'killed') await s3.kill();
        else s3.freeze();
        try {
          const started = Date.now();
          const response = await t.app.inject({
            url: path,
            headers: { 'accept-encoding': 'gzip' },
          });
          const elapsed = Date.now() - started;
          assert.ok(elapsed < BOUND_MS, `${fault}: answered after ${elapsed} ms`);
          assert.equal(response.statusCode, 503, fault);
          assert.equal(response.headers['retry-after'], '5');
          assert.equal(response.headers['cache-control'], 'no-store');
          const body = JSON.parse(zlib.gunzipSync(response.rawPayload).toString());
          assert.equal(body.errors[0].title, 'Service Unavailable');
          assert.equal(body.data, undefined);
        } finally {
          if (fault === 'killed') await s3.restart();
          else s3.thaw();
        }
        const back = await t.app.inject({ url: path });
        assert.equal(back.statusCode, 200, `${fault}: served again once the store is back`);
        assert.deepEqual(back.json(), match.telemetry);
      }
    });

    test('a missing object is a 404', async () => {
      const match = matchWithTelemetry('missing');
      await ingestMatch(t, match);
      const key = (await storedKey(match.id))!;
      await t.blobs.delete(key);
      const response = await t.app.inject({ url: `/telemetry/${key}` });
      assert.equal(response.statusCode, 404);
      assert.equal(response.json().errors[0].title, 'Not Found');
    });

    test('retention deletes the object with the match; an outage postpones it, leaving nothing behind', async () => {
      const match = matchWithTelemetry('expired');
      await ingestMatch(t, match);
      const key = `${PREFIX}/${(await storedKey(match.id))!}`;
      assert.ok(await s3.head(BUCKET, key));
      const now = t.clock.now();
      try {
        t.clock.set(createdAt + 14 * DAY_MS + 60_000);
        await s3.kill();
        try {
          await assert.rejects(purgeExpired(t), BlobStoreUnavailableError);
        } finally {
          await s3.restart();
        }
        assert.ok(await s3.head(BUCKET, key), 'the object stays while its rows do');
        assert.ok((await rowsOf(match.id)) > 0, 'the rows stay, so the next run finds the key');

        const purged = await purgeExpired(t);
        assert.ok(purged.matches >= 1);
      } finally {
        t.clock.set(now);
      }
      assert.equal(await s3.head(BUCKET, key), null);
      assert.equal(await rowsOf(match.id), 0);
    });
  });
}
