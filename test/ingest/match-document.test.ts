import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { resolveShard, VENDOR_SHARD_ALIASES } from '../../src/domain/shards.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { ingestRecordedMatch } from '../../src/ingest/recorded-match.ts';
import {
  canonicalMatchDocumentVariant,
  matchDocumentVariantKey,
  renderMatchDocument,
  type MatchDocumentVariant,
} from '../../src/presenters/match-document.ts';
import { telemetryUrl } from '../../src/presenters/telemetry-url.ts';
import { findMatchRecord, loadMatchDocument } from '../../src/store/match-documents.ts';
import { testDatabases } from '../helpers/stores.ts';
import { openIngestContext, TEST_CONFIG } from '../helpers/ingest-deps.ts';
import { makeMatchInput } from '../helpers/matches.ts';

type Json = Record<string, unknown> & { [key: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/reference/fixtures/match');
const SQUAD_FIXTURE = path.join(
  FIXTURES,
  'pubgkt--matches-src-commonTest-resources-match_squad_response.json',
);

function variant(spelling: string): MatchDocumentVariant {
  return {
    shard: resolveShard(spelling, VENDOR_SHARD_ALIASES)!,
    shardAliases: VENDOR_SHARD_ALIASES,
    publicBaseUrl: TEST_CONFIG.publicBaseUrl,
    telemetryBaseUrl: TEST_CONFIG.telemetryBaseUrl,
  };
}

test('telemetry URLs are dated by the asset createdAt, zero-padded, in UTC', () => {
  assert.equal(
    telemetryUrl('https://cdn.test', 'pc-b', Date.parse('2026-04-05T02:07:30Z'), 'a-b'),
    'https://cdn.test/bluehole-pubg/pc-b/2026/04/05/02/07/a-b-telemetry.json',
  );
});

test('variant keys are short, stable and differ by spelling and base URLs', () => {
  const canonical = canonicalMatchDocumentVariant('pc-b', TEST_CONFIG);
  assert.equal(matchDocumentVariantKey(canonical), matchDocumentVariantKey({ ...canonical }));
  assert.match(matchDocumentVariantKey(canonical), /^pc-b\|[A-Za-z0-9_-]{12}$/);
  assert.notEqual(matchDocumentVariantKey(variant('steam')), matchDocumentVariantKey(canonical));
  assert.notEqual(
    matchDocumentVariantKey({ ...canonical, telemetryBaseUrl: 'https://other.test' }),
    matchDocumentVariantKey(canonical),
  );
});

for (const database of testDatabases) {
  const name = (title: string): string => `[${database.name}] ${title}`;

  test(name('the document is rendered once at ingest and served from the store'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const input = makeMatchInput({ rosters: 3, playersPerRoster: 2 });
      await ingestMatch(ctx.deps, input);
      const canonical = canonicalMatchDocumentVariant('pc-b', TEST_CONFIG);
      const stored = await loadMatchDocument(ctx.deps.store, input.id, canonical);
      assert.ok(stored);
      const record = await findMatchRecord(ctx.deps.store.db, input.id);
      assert.equal(
        stored.body.toString(),
        renderMatchDocument(record!, canonical),
        'rows render the same bytes',
      );
      assert.deepEqual(zlib.gunzipSync(stored.bodyGzip), stored.body);
      assert.equal(
        stored.etag,
        `"${crypto.createHash('sha1').update(stored.body).digest('base64url')}"`,
      );
      assert.equal(stored.createdAt, Date.parse(input.createdAt));
      assert.equal(stored.platform, 'pc-b');
      assert.equal((await ctx.rowCounts()).match_documents, 1);
      assert.equal(
        await loadMatchDocument(ctx.deps.store, '00000000-0000-4000-8000-000000000000', canonical),
        null,
      );
    } finally {
      await ctx.close();
    }
  });

  test(name('the document has the shape of the real service'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const input = makeMatchInput({ rosters: 3, playersPerRoster: 2, winner: 1 });
      await ingestMatch(ctx.deps, input);
      const stored = await loadMatchDocument(
        ctx.deps.store,
        input.id,
        canonicalMatchDocumentVariant('pc-b', TEST_CONFIG),
      );
      const doc = JSON.parse(stored!.body.toString()) as Json;
      const self = `http://api.test/shards/pc-b/matches/${input.id}`;
      assert.deepEqual(Object.keys(doc), ['data', 'included', 'links', 'meta']);
      assert.deepEqual(doc.links, { self });
      assert.deepEqual(doc.meta, {});
      assert.deepEqual(doc.data.links, { self, schema: '' });
      assert.deepEqual(doc.data.attributes, {
        createdAt: '2026-11-20T12:00:00Z',
        duration: 1800,
        gameMode: 'duo',
        mapName: 'Baltic_Main',
        matchType: 'official',
        isCustomMatch: false,
        seasonState: 'progress',
        shardId: 'pc-b',
        titleId: 'bluehole-pubg',
        stats: null,
        tags: null,
      });
      const kinds = (type: string) => (doc.included as Json[]).filter((r) => r.type === type);
      assert.equal(kinds('participant').length, 6);
      assert.equal(kinds('roster').length, 3);
      assert.equal(kinds('asset').length, 1);
      assert.deepEqual(
        doc.data.relationships.rosters.data.map((r: Json) => r.id),
        kinds('roster').map((r) => r.id),
      );
      assert.deepEqual(
        kinds('roster').map((r) => [r.attributes.won, r.attributes.stats.rank]),
        [
          ['false', 2],
          ['true', 1],
          ['false', 3],
        ],
      );
      for (const roster of kinds('roster')) {
        assert.deepEqual(roster.relationships.team, { data: null });
        assert.equal(roster.relationships.participants.data.length, 2);
      }
      const asset = kinds('asset')[0]!;
      assert.deepEqual(doc.data.relationships.assets.data, [{ type: 'asset', id: asset.id }]);
      assert.deepEqual(asset.attributes, {
        name: 'telemetry',
        description: '',
        createdAt: '2026-11-20T12:32:00Z',
        URL: `http://cdn.test/bluehole-pubg/pc-b/2026/11/20/12/32/${asset.id}-telemetry.json`,
      });
      const participant = kinds('participant')[0]!;
      assert.deepEqual(Object.keys(participant.attributes), ['actor', 'shardId', 'stats']);
      assert.equal(participant.attributes.actor, '');
      assert.equal(Object.keys(participant.attributes.stats).length, 23);
    } finally {
      await ctx.close();
    }
  });

  test(name('a variant spells shards as the request did and is stored once rendered'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const input = makeMatchInput({
        player: (seat) => (seat.index === 1 ? { shardId: 'console-b' } : {}),
        overrides: { platformShard: 'console-a', regionShard: 'console-a-eu' },
      });
      await ingestMatch(ctx.deps, input);
      const psn = variant('psn');
      const first = await loadMatchDocument(ctx.deps.store, input.id, psn);
      const doc = JSON.parse(first!.body.toString()) as Json;
      assert.equal(doc.data.attributes.shardId, 'psn');
      assert.equal(doc.links.self, `http://api.test/shards/psn/matches/${input.id}`);
      const shards = (doc.included as Json[])
        .filter((r) => r.type === 'participant')
        .map((p) => p.attributes.shardId);
      assert.deepEqual(shards, ['psn', 'xbox', 'psn', 'psn']);
      assert.match(
        (doc.included as Json[]).find((r) => r.type === 'asset')!.attributes.URL,
        /^http:\/\/cdn\.test\/bluehole-pubg\/console-a\/2026\//,
        'one telemetry URL, its blob key, whatever shard spelling the request used',
      );
      assert.equal((await ctx.rowCounts()).match_documents, 2);
      const second = await loadMatchDocument(ctx.deps.store, input.id, psn);
      assert.deepEqual(second, first);
    } finally {
      await ctx.close();
    }
  });

  test(
    name('a recorded document re-renders with the real document’s keys and value types'),
    { skip: fs.existsSync(SQUAD_FIXTURE) ? false : 'reference fixtures not present' },
    async () => {
      const ctx = await openIngestContext(database, { retentionDays: 0 });
      try {
        const recorded = JSON.parse(fs.readFileSync(SQUAD_FIXTURE, 'utf8')) as Json;
        await ingestRecordedMatch(ctx.deps, recorded, { region: 'pc-na' });
        const stored = await loadMatchDocument(ctx.deps.store, recorded.data.id, variant('steam'));
        const ours = JSON.parse(stored!.body.toString()) as Json;

        assertSameShape(ours, recorded, 'document', ['included']);
        const byType = (doc: Json, type: string) =>
          (doc.included as Json[]).filter((r) => r.type === type);
        for (const type of ['participant', 'roster', 'asset']) {
          assert.equal(byType(ours, type).length, byType(recorded, type).length, type);
          assertSameShape(byType(ours, type)[0]!, byType(recorded, type)[0]!, type, []);
        }
        // Values the archive must keep: participant stats, roster results, the asset's time.
        const statsById = (doc: Json) =>
          new Map(byType(doc, 'participant').map((p) => [p.id, p.attributes.stats]));
        assert.deepEqual(statsById(ours), statsById(recorded));
        const rosters = (doc: Json) =>
          new Map(
            byType(doc, 'roster').map((r) => [
              r.id,
              [r.attributes.won, r.attributes.stats, r.relationships],
            ]),
          );
        assert.deepEqual(rosters(ours), rosters(recorded));
        const asset = (doc: Json) => byType(doc, 'asset')[0]!;
        assert.equal(asset(ours).id, asset(recorded).id);
        assert.equal(asset(ours).attributes.createdAt, asset(recorded).attributes.createdAt);
        // The same dated path and file; the shard segment is the canonical platform (the blob key).
        assert.equal(
          asset(ours).attributes.URL.replace(/^.*bluehole-pubg/, ''),
          asset(recorded)
            .attributes.URL.replace(/^.*bluehole-pubg/, '')
            .replace(/^\/steam\//, '/pc-b/'),
        );
        assert.deepEqual(ours.data.attributes, recorded.data.attributes);
      } finally {
        await ctx.close();
      }
    },
  );
}

/** Same keys (any order) and JSON value types, recursively; arrays compared by their first item. */
function assertSameShape(ours: unknown, theirs: unknown, where: string, skip: string[]): void {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  assert.equal(kind(ours), kind(theirs), `${where}: type`);
  if (Array.isArray(ours) && Array.isArray(theirs)) {
    if (ours.length > 0 && theirs.length > 0)
      assertSameShape(ours[0], theirs[0], `${where}[0]`, skip);
    return;
  }
  if (kind(ours) !== 'object') return;
  const a = ours as Record<string, unknown>;
  const b = theirs as Record<string, unknown>;
  assert.deepEqual(Object.keys(a).sort(), Object.keys(b).sort(), `${where}: keys`);
  for (const key of Object.keys(a)) {
    if (!skip.includes(key)) assertSameShape(a[key], b[key], `${where}.${key}`, skip);
  }
}
