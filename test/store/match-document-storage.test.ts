/**
 * A match document is stored once, as gzip (migration 0011): the identity bytes served are the
 * document's rendering, byte for byte, and the gzip bytes unzip to them — both for rows written
 * now and for rows written before the migration, with both copies, that it converted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import {
  canonicalMatchDocumentVariant,
  renderMatchDocument,
} from '../../src/presenters/match-document.ts';
import { findMatchRecord } from '../../src/store/match-documents.ts';
import { up as dropIdentityCopy } from '../../src/store/migrations/0011-match-document-one-copy.ts';

/** The document of a stored match as rendered from its rows: what the identity copy held. */
async function rendered(t: TestApp, matchId: string): Promise<Buffer> {
  const record = await findMatchRecord(t.store.db, matchId);
  const variant = canonicalMatchDocumentVariant('pc-b', t.config);
  return Buffer.from(renderMatchDocument(record!, variant));
}

/** Asserts what the service sends for the match, gzip and not, is `identity` and its gzip. */
async function assertServes(t: TestApp, matchId: string, identity: Buffer): Promise<Buffer> {
  const url = `/shards/pc-b/matches/${matchId}`;
  const gzip = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
  const plain = await t.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
  assert.equal(gzip.headers['content-encoding'], 'gzip');
  assert.deepEqual(zlib.gunzipSync(gzip.rawPayload), identity);
  assert.deepEqual(plain.rawPayload, identity);
  const sha1 = crypto.createHash('sha1').update(identity).digest('base64url');
  assert.equal(plain.headers.etag, `"${sha1}"`);
  return gzip.rawPayload;
}

for (const database of testDatabases) {
  test(`[${database.name}] documents are stored as gzip only and served byte-exact in both encodings`, async () => {
    const t = await createTestApp(database);
    try {
      const input = makeMatchInput({ seed: 'one-copy', telemetry: true });
      await ingestMatch(t, input);
      const rows = await t.store.db.selectFrom('match_documents').selectAll().execute();
      assert.equal(rows.length, 1);
      assert.deepEqual(Object.keys(rows[0]!).sort(), [
        'body_gzip',
        'created_at',
        'etag',
        'match_id',
        'variant',
      ]);
      const identity = await rendered(t, input.id);
      assert.deepEqual(zlib.gunzipSync(rows[0]!.body_gzip), identity);
      // Twice: the identity made on the first request is kept with the cached match.
      await assertServes(t, input.id, identity);
      await assertServes(t, input.id, identity);
    } finally {
      await t.close();
    }
  });

  test(`[${database.name}] migration 0011 converts rows that hold both copies`, async () => {
    const t = await createTestApp(database);
    try {
      const input = makeMatchInput({ seed: 'two-copies', telemetry: true });
      await ingestMatch(t, input);
      const identity = await rendered(t, input.id);
      // The table as it was before 0011, with the row as the previous version wrote it.
      const blobType = t.store.dialect === 'sqlite' ? 'blob' : 'bytea';
      await t.store.db.schema.alterTable('match_documents').addColumn('body', blobType).execute();
      await t.store.db
        .updateTable('match_documents')
        .set({ body: identity } as never)
        .where('match_id', '=', input.id)
        .execute();
      const before = await t.store.db.selectFrom('match_documents').selectAll().execute();
      assert.ok('body' in before[0]!);

      await dropIdentityCopy(t.store.db);
      const after = await t.store.db.selectFrom('match_documents').selectAll().execute();
      assert.equal(after.length, 1);
      assert.ok(!('body' in after[0]!));
      assert.deepEqual(after[0]!.body_gzip, before[0]!.body_gzip);
      const gzip = await assertServes(t, input.id, identity);
      assert.deepEqual(gzip, Buffer.from(before[0]!.body_gzip), 'the stored gzip, as it was');
    } finally {
      await t.close();
    }
  });
}
