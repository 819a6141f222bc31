import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ingestMatch, attachTelemetry, settleWhenStored } from '../../src/ingest/ingest-match.ts';
import { storePrepared } from '../../src/ingest/ingest-prepared.ts';
import type { MatchInput } from '../../src/ingest/match-input.ts';
import { assertMatchInputSchema } from '../../src/ingest/match-input-check.ts';
import { prepareMatch, type SettleEarly } from '../../src/ingest/prepare-match.ts';
import { ingestRecordedMatch } from '../../src/ingest/recorded-match.ts';
import { loadMatchDocument } from '../../src/ingest/load-match-document.ts';
import {
  IngestError,
  IngestTooLargeError,
  TelemetryConflictError,
} from '../../src/ingest/ingest-error.ts';
import { readTelemetryFile } from '../../src/ingest/telemetry-file.ts';
import {
  canonicalMatchDocumentVariant,
  matchDocumentVariantKey,
} from '../../src/presenters/match-document.ts';
import { documentRowVariant, saveMatchDocument } from '../../src/store/match-documents.ts';
import { testDatabases } from '../helpers/stores.ts';
import { openIngestContext, TEST_CONFIG, type IngestTestContext } from '../helpers/ingest-deps.ts';
import { makeMatchInput, sampleTelemetry } from '../helpers/matches.ts';

const TRUNCATED = path.resolve(
  import.meta.dirname,
  '../../../shared/reference/fixtures/telemetry/pubg-api-kotlin--src-test-resources-examples-telemetry@8b847fc.TRUNCATED.json.gz',
);

/** The real 2018 telemetry prefix, cut to its 5,459 whole events: a valid file of real bytes. */
function realTelemetry(): Buffer {
  const text = zlib.gunzipSync(fs.readFileSync(TRUNCATED)).toString('utf8');
  return Buffer.from(`${text.slice(0, text.lastIndexOf('},{"') + 1)}]`);
}

/** A telemetry file (JSON text) with number spellings JSON.stringify would change. */
function oddNumbers(matchId: string, marker = 0): Buffer {
  const events = JSON.stringify(sampleTelemetry(matchId, Date.parse('2026-11-20T12:00:00Z')));
  return Buffer.from(
    `[{"_T":"LogPlayerPosition","_D":"2026-11-20T12:01:00.000Z","x":1.0,"y":1E2,"z":-0.0,"m":${marker}},${events.slice(1)}`,
  );
}

const storedFile = (ctx: IngestTestContext): Buffer => {
  const [key] = ctx.blobs();
  return fs.readFileSync(path.join(ctx.blobDir, key!));
};

test('a telemetry file is read without being rewritten; oversized and broken files refused', async () => {
  const plain = oddNumbers('x');
  const fromPlain = await readTelemetryFile(plain, 1 << 20);
  assert.ok(zlib.gunzipSync(fromPlain.gzip).equals(plain));
  const given = zlib.gzipSync(plain, { level: 9 });
  assert.ok((await readTelemetryFile(given, 1 << 20)).gzip.equals(given), 'gzip kept as given');

  const bomb = zlib.gzipSync(`[${' '.repeat(4 << 20)}]`);
  await assert.rejects(readTelemetryFile(bomb, 1 << 20), IngestTooLargeError);
  await assert.rejects(readTelemetryFile(plain, 100), IngestTooLargeError);
  await assert.rejects(
    readTelemetryFile(Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.from('junk')]), 1 << 20),
    (error: unknown) => error instanceof IngestError && error.field === 'telemetry',
  );
  await assert.rejects(
    readTelemetryFile(Buffer.from('[{"_T":"LogMatchStart","_D":1}]'), 1 << 20),
    (error: unknown) => error instanceof IngestError && error.field === 'telemetry/0/_D',
  );
});

test(
  'the real telemetry file would change spelling if re-serialized; the stored one does not',
  { skip: fs.existsSync(TRUNCATED) ? false : 'reference fixtures not present' },
  async () => {
    const real = realTelemetry();
    assert.notEqual(JSON.stringify(JSON.parse(real.toString())), real.toString());
    const file = await readTelemetryFile(real, 64 << 20);
    assert.ok(zlib.gunzipSync(file.gzip).equals(real));
  },
);

for (const database of testDatabases) {
  const name = (title: string): string => `[${database.name}] ${title}`;

  test(name('recorded telemetry is stored byte for byte, gzip as given'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const gzipMatch = makeMatchInput({ seed: 'bytes-gzip' });
      const given = zlib.gzipSync(oddNumbers(gzipMatch.id), { level: 3 });
      await ingestMatch(ctx.deps, gzipMatch, { telemetry: given });
      assert.ok(storedFile(ctx).equals(given));
    } finally {
      await ctx.close();
    }
    const plainCtx = await openIngestContext(database);
    try {
      const plainMatch = makeMatchInput({ seed: 'bytes-plain' });
      const plain = fs.existsSync(TRUNCATED) ? realTelemetry() : oddNumbers(plainMatch.id);
      await ingestMatch(plainCtx.deps, plainMatch, { telemetry: plain });
      assert.ok(zlib.gunzipSync(storedFile(plainCtx)).equals(plain));
    } finally {
      await plainCtx.close();
    }
  });

  test(
    name('telemetry attaches later: attached, then unchanged, a different file refused'),
    async () => {
      const ctx = await openIngestContext(database);
      try {
        const input = makeMatchInput({ seed: 'attach-later' });
        assert.equal((await ingestMatch(ctx.deps, input)).telemetry, false);
        const variant = canonicalMatchDocumentVariant('pc-b', TEST_CONFIG);
        const before = await loadMatchDocument(ctx.deps.store, input.id, variant);
        assert.equal(before!.hasTelemetry, false);
        assert.doesNotMatch(before!.body.toString(), /"type":"asset"/);
        assert.deepEqual(ctx.blobs(), []);

        const file = oddNumbers(input.id);
        const attached = await ingestMatch(ctx.deps, input, { telemetry: zlib.gzipSync(file) });
        assert.deepEqual(attached, {
          status: 'attached',
          matchId: input.id,
          platform: 'pc-b',
          telemetry: true,
        });
        const after = await loadMatchDocument(ctx.deps.store, input.id, variant);
        assert.equal(after!.hasTelemetry, true);
        assert.notEqual(after!.etag, before!.etag);
        assert.match(after!.body.toString(), /"type":"asset"/);
        const stored = storedFile(ctx);
        const counts = await ctx.rowCounts();

        // The same file, plain or gzipped otherwise, changes nothing.
        assert.equal((await attachTelemetry(ctx.deps, input.id, file)).status, 'unchanged');
        const again = await ingestMatch(ctx.deps, input, {
          telemetry: zlib.gzipSync(file, { level: 9 }),
        });
        assert.equal(again.status, 'unchanged');
        await assert.rejects(
          attachTelemetry(ctx.deps, input.id, oddNumbers(input.id, 1)),
          TelemetryConflictError,
        );
        await assert.rejects(
          ingestMatch(ctx.deps, { ...input, telemetry: sampleTelemetry(input.id, 0) }),
          TelemetryConflictError,
        );
        assert.ok(storedFile(ctx).equals(stored));
        assert.deepEqual(await ctx.rowCounts(), counts);
        const unchanged = await loadMatchDocument(ctx.deps.store, input.id, variant);
        assert.equal(unchanged!.etag, after!.etag);
      } finally {
        await ctx.close();
      }
    },
  );

  test(name('a recorded match re-ingested with its telemetry attaches it'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const input = makeMatchInput({ seed: 'recorded-attach' });
      await ingestMatch(ctx.deps, input);
      const variant = canonicalMatchDocumentVariant('pc-b', TEST_CONFIG);
      const document = JSON.parse(
        (await loadMatchDocument(ctx.deps.store, input.id, variant))!.body.toString(),
      );
      // Give it the asset a recording carries, then store it as a recording of its own.
      document.data.id = 'c0ffee00-1234-4abc-8def-0123456789ab';
      document.data.relationships.assets.data = [
        { type: 'asset', id: 'ab000000-1111-11f1-8000-000000000001' },
      ];
      document.included.push({
        type: 'asset',
        id: 'ab000000-1111-11f1-8000-000000000001',
        attributes: {
          name: 'telemetry',
          description: '',
          createdAt: '2026-11-20T12:33:00Z',
          URL: 'https://cdn.example/x',
        },
      });
      const recorded = { ...document, included: document.included };
      const first = await ingestRecordedMatch(ctx.deps, recorded, { region: 'pc-eu' });
      assert.deepEqual([first.status, first.telemetry], ['ingested', false]);
      const telemetry = zlib.gzipSync(oddNumbers(document.data.id));
      const second = await ingestRecordedMatch(ctx.deps, recorded, { telemetry });
      assert.deepEqual([second.status, second.telemetry], ['attached', true]);
      const third = await ingestRecordedMatch(ctx.deps, recorded, { telemetry });
      assert.equal(third.status, 'unchanged');
      await assert.rejects(
        ingestRecordedMatch(ctx.deps, recorded, {
          telemetry: zlib.gzipSync(oddNumbers(document.data.id, 7)),
        }),
        /already has a different telemetry file/,
      );
    } finally {
      await ctx.close();
    }
  });

  test(
    name('two concurrent attaches: one file wins, the other is refused or unchanged'),
    async () => {
      const ctx = await openIngestContext(database);
      try {
        const input = makeMatchInput({ seed: 'attach-race' });
        await ingestMatch(ctx.deps, input);
        const [a, b] = [oddNumbers(input.id, 1), oddNumbers(input.id, 2)];
        const results = await Promise.allSettled([
          attachTelemetry(ctx.deps, input.id, a),
          attachTelemetry(ctx.deps, input.id, b),
        ]);
        const won = results.findIndex((r) => r.status === 'fulfilled');
        assert.ok(won >= 0);
        assert.equal(
          (results[won] as PromiseFulfilledResult<{ status: string }>).value.status,
          'attached',
        );
        const lost = results[1 - won]!;
        assert.ok(lost.status === 'rejected' && lost.reason instanceof TelemetryConflictError);
        assert.ok(zlib.gunzipSync(storedFile(ctx)).equals(won === 0 ? a : b));

        const same = makeMatchInput({ seed: 'attach-race-same' });
        await ingestMatch(ctx.deps, same);
        const statuses = await Promise.all([
          attachTelemetry(ctx.deps, same.id, oddNumbers(same.id)),
          attachTelemetry(ctx.deps, same.id, oddNumbers(same.id)),
        ]);
        assert.deepEqual(statuses.map((r) => r.status).sort(), ['attached', 'unchanged']);
      } finally {
        await ctx.close();
      }
    },
  );

  test(name('a rendering that raced the telemetry is never served afterwards'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const input = makeMatchInput({ seed: 'render-race', telemetry: true });
      await ingestMatch(ctx.deps, input);
      const variant = canonicalMatchDocumentVariant('pc-b', TEST_CONFIG);
      // A rendering of the match without its asset, stored late (as a racing first read would).
      await saveMatchDocument(ctx.deps.store.db, {
        match_id: input.id,
        variant: documentRowVariant(matchDocumentVariantKey(variant), false),
        etag: '"stale"',
        body_gzip: zlib.gzipSync('{"stale":true}'),
        created_at: Date.parse(input.createdAt),
      });
      const served = await loadMatchDocument(ctx.deps.store, input.id, variant);
      assert.notEqual(served!.etag, '"stale"');
      assert.equal(served!.hasTelemetry, true);
    } finally {
      await ctx.close();
    }
  });

  test(
    name('a match sent again is settled before its telemetry is gzipped or documents rendered'),
    async () => {
      const ctx = await openIngestContext(database);
      try {
        const now = ctx.deps.clock.now();
        // What was asked of the early settle: the telemetry text it was given, or none.
        const asked: Array<string | null> = [];
        const settle = settleWhenStored(ctx.deps);
        const settleEarly: SettleEarly = (match, text, at) => {
          asked.push(text === undefined ? null : text.toString());
          return settle(match, text, at);
        };
        const prepare = (input: MatchInput, telemetry?: Buffer) =>
          prepareMatch(
            {
              source: Buffer.from(JSON.stringify(input)),
              ...(telemetry ? { telemetry } : {}),
              now,
            },
            ctx.deps.config,
            assertMatchInputSchema,
            settleEarly,
          );
        const store = async (input: MatchInput) => {
          const outcome = await prepare(input);
          assert.equal(outcome.kind, 'prepared', 'not stored yet: prepared whole');
          return storePrepared(ctx.deps, outcome as Exclude<typeof outcome, { kind: 'other' }>);
        };

        const input = makeMatchInput({ seed: 'early-settle', telemetry: true });
        assert.equal((await store(input)).status, 'ingested');
        assert.deepEqual(asked, [JSON.stringify(input.telemetry)], 'asked with the inline text');
        const counts = await ctx.rowCounts();
        const file = storedFile(ctx);

        const again = await prepare(input);
        assert.deepEqual(again, {
          kind: 'stored',
          result: { status: 'unchanged', matchId: input.id, platform: 'pc-b', telemetry: true },
        });
        const other = await prepare({ ...input, telemetry: sampleTelemetry(input.id, 60_000) });
        assert.equal(other.kind, 'error');
        assert.equal(other.kind === 'error' && other.error.name, 'TelemetryConflictError');
        assert.deepEqual(await ctx.rowCounts(), counts);
        assert.ok(storedFile(ctx).equals(file));

        // A file the blob store lost is not settled early: it is gzipped, and restored.
        fs.rmSync(path.join(ctx.blobDir, ctx.blobs()[0]!));
        assert.equal((await store(input)).status, 'attached');
        assert.ok(
          zlib.gunzipSync(storedFile(ctx)).equals(Buffer.from(JSON.stringify(input.telemetry))),
        );

        // Without telemetry: unchanged; with it, to a match stored without: attached, whole.
        const bare = makeMatchInput({ seed: 'early-settle-bare' });
        await ingestMatch(ctx.deps, bare);
        asked.length = 0;
        assert.deepEqual(await prepare(bare), {
          kind: 'stored',
          result: { status: 'unchanged', matchId: bare.id, platform: 'pc-b', telemetry: false },
        });
        assert.equal(
          (await store({ ...bare, telemetry: sampleTelemetry(bare.id, 0) })).status,
          'attached',
        );
        assert.deepEqual(asked, [null, JSON.stringify(sampleTelemetry(bare.id, 0))]);

        // A file given apart is read (and gzipped) whole: not asked.
        const apart = makeMatchInput({ seed: 'early-settle-apart' });
        asked.length = 0;
        const outcome = await prepare(
          apart,
          Buffer.from(JSON.stringify(sampleTelemetry(apart.id, 0))),
        );
        assert.equal(outcome.kind, 'prepared');
        assert.deepEqual(asked, []);
      } finally {
        await ctx.close();
      }
    },
  );
}
