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
  renderParticipantStats,
  type MatchDocumentVariant,
} from '../../src/presenters/match-document.ts';
import { telemetryUrl } from '../../src/presenters/telemetry-url.ts';
import {
  findMatchRecord,
  findMatchMembers,
  STATS_IN_DOCUMENT,
} from '../../src/store/match-documents.ts';
import { loadMatchDocument } from '../../src/ingest/load-match-document.ts';
import { testDatabases } from '../helpers/stores.ts';
import { openIngestContext, TEST_CONFIG } from '../helpers/ingest-deps.ts';
import { makeMatchInput, participantsOf, sampleTelemetry } from '../helpers/matches.ts';

type Json = Record<string, unknown> & { [key: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/reference/fixtures/match');
const fixtureFiles = fs.existsSync(FIXTURES)
  ? fs
      .readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];

const VENDOR_SPELLING: Record<string, string> = {
  'pc-a': 'kakao',
  'pc-b': 'steam',
  'console-a': 'psn',
  'console-b': 'xbox',
};

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

  test(
    name('rosters and participants are kept once, in the document, and read back exactly'),
    async () => {
      const ctx = await openIngestContext(database);
      try {
        const input = makeMatchInput({ rosters: 2, playersPerRoster: 2, telemetry: false });
        // Values whose text a careless round trip would change: long fractions, tiny and large
        // numbers, a name with characters JSON escapes.
        const awkward = [0.1 + 0.2, 123.45678901234567, 1e-7, 98765432.5];
        participantsOf(input).forEach((p, i) => {
          p.stats.damageDealt = awkward[i]!;
          p.stats.walkDistance = awkward[(i + 1) % 4]!;
        });
        participantsOf(input)[1]!.name = 'Qu"ote\\Ünï';
        await ingestMatch(ctx.deps, input);
        const counts = await ctx.rowCounts();
        assert.deepEqual([counts.rosters, counts.participants], [0, 0], 'no copy in rows');
        const record = await findMatchRecord(ctx.deps.store.db, input.id);
        assert.deepEqual(
          record!.participants.map((p) => p.statsJson),
          participantsOf(input).map((p) => renderParticipantStats(p.name, p.playerId, p.stats)),
        );
        // A variant rendered later (a shard alias) and the canonical one after its telemetry
        // arrives are rendered from those stats: both still say what the first did.
        const first = JSON.parse(
          (await loadMatchDocument(ctx.deps.store, input.id, variant('steam')))!.body.toString(),
        ) as Json;
        await ingestMatch(ctx.deps, {
          ...input,
          telemetry: sampleTelemetry(input.id, Date.parse(input.createdAt)),
        });
        const later = await loadMatchDocument(
          ctx.deps.store,
          input.id,
          canonicalMatchDocumentVariant('pc-b', TEST_CONFIG),
        );
        const doc = JSON.parse(later!.body.toString()) as Json;
        const statsOf = (d: Json) =>
          (d.included as Json[])
            .filter((r) => r.type === 'participant')
            .map((r) => r.attributes.stats);
        assert.equal((doc.included as Json[]).filter((r) => r.type === 'asset').length, 1);
        assert.deepEqual(statsOf(doc), statsOf(first));
        assert.equal(statsOf(doc)[0].damageDealt, 0.1 + 0.2);
        assert.equal(statsOf(doc)[1].name, 'Qu"ote\\Ünï');
      } finally {
        await ctx.close();
      }
    },
  );

  test(
    name("members are read from the rendering in the match's own spelling, never an alias's"),
    async () => {
      const ctx = await openIngestContext(database);
      try {
        const input = makeMatchInput({ rosters: 2, playersPerRoster: 2, telemetry: false });
        await ingestMatch(ctx.deps, input);
        const db = ctx.deps.store.db;
        const canonical = canonicalMatchDocumentVariant('pc-b', TEST_CONFIG);
        const own = (await loadMatchDocument(ctx.deps.store, input.id, canonical))!.body;
        // The alias's rendering spells every participant's platform its own way.
        const alias = JSON.parse(
          (await loadMatchDocument(ctx.deps.store, input.id, variant('steam')))!.body.toString(),
        ) as Json;
        const shards = (alias.included as Json[])
          .filter((r) => r.type === 'participant')
          .map((r) => r.attributes.shardId);
        assert.deepEqual(new Set(shards), new Set(['steam']));
        await db
          .deleteFrom('match_documents')
          .where('variant', 'like', 'steam|%')
          .where('match_id', '=', input.id)
          .execute();
        await db
          .insertInto('match_documents')
          .values({
            match_id: input.id,
            variant: 'steam|older',
            etag: '"older"',
            body_gzip: zlib.gzipSync(JSON.stringify(alias)),
            created_at: Date.parse(input.createdAt),
          })
          .execute();
        const record = await findMatchRecord(db, input.id);
        assert.ok(record!.participants.every((p) => p.platform === 'pc-b'));
        assert.equal(renderMatchDocument(record!, canonical), own.toString());

        await db
          .deleteFrom('match_documents')
          .where('variant', 'like', 'pc-b|%')
          .where('match_id', '=', input.id)
          .execute();
        await assert.rejects(findMatchRecord(db, input.id), /own shard's spelling/);
      } finally {
        await ctx.close();
      }
    },
  );

  test(name('rows stored with their stats left to the document still read'), async () => {
    // Ingest of 2026-12-02 kept member rows with empty stats; retention ages such rows out.
    const ctx = await openIngestContext(database);
    try {
      const input = makeMatchInput({ rosters: 2, playersPerRoster: 2, telemetry: false });
      await ingestMatch(ctx.deps, input);
      const db = ctx.deps.store.db;
      const members = await findMatchMembers(db, input.id, 'pc-b');
      await db
        .insertInto('rosters')
        .values(
          members.rosters.map((r, position) => ({
            match_id: input.id,
            id: r.id,
            team_id: r.teamId,
            rank: r.rank,
            won: r.won ? 1 : 0,
            position,
          })),
        )
        .execute();
      await db
        .insertInto('participants')
        .values(
          members.participants.map((p, position) => ({
            match_id: input.id,
            id: p.id,
            roster_id: p.rosterId,
            player_id: p.playerId,
            shard: p.platform,
            stats: STATS_IN_DOCUMENT,
            position,
          })),
        )
        .execute();
      assert.deepEqual(await findMatchMembers(db, input.id, 'pc-b'), members);
      // A row's own stats win over the document's.
      await db
        .updateTable('participants')
        .set({ stats: '{"kills":99}' })
        .where('id', '=', members.participants[0]!.id)
        .execute();
      const read = await findMatchMembers(db, input.id, 'pc-b');
      assert.equal(read.participants[0]!.statsJson, '{"kills":99}');
      assert.equal(read.participants[1]!.statsJson, members.participants[1]!.statsJson);
    } finally {
      await ctx.close();
    }
  });

  test(name('a recorded match keeps its members in its rows, stats and all'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const input = makeMatchInput({ rosters: 2, playersPerRoster: 1, telemetry: true });
      await ingestMatch(ctx.deps, input);
      const canonical = canonicalMatchDocumentVariant('pc-b', TEST_CONFIG);
      const recorded = (await loadMatchDocument(ctx.deps.store, input.id, canonical))!.body;
      const other = await openIngestContext(database);
      try {
        await ingestRecordedMatch(other.deps, JSON.parse(recorded.toString()) as Json, {
          region: 'pc-eu',
        });
        const rows = await other.deps.store.db.selectFrom('participants').select('stats').execute();
        assert.equal(rows.length, 2);
        assert.ok(rows.every((row) => row.stats !== STATS_IN_DOCUMENT && JSON.parse(row.stats)));
        assert.equal((await other.rowCounts()).rosters, 2);
      } finally {
        await other.close();
      }
    } finally {
      await ctx.close();
    }
  });

  test(name('the document has the shape of the real service'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const input = makeMatchInput({
        rosters: 3,
        playersPerRoster: 2,
        winner: 1,
        telemetry: true,
      });
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
        telemetry: true,
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
    name('a recorded document is served as recorded: only its links name this service'),
    { skip: fixtureFiles.length > 0 ? false : 'reference fixtures not present' },
    async () => {
      const ctx = await openIngestContext(database, { retentionDays: 0 });
      try {
        for (const file of fixtureFiles) {
          const raw = fs.readFileSync(path.join(FIXTURES, file));
          const recorded = JSON.parse(raw.toString()) as Json;
          const id = recorded.data.id as string;
          const { platform } = await ingestRecordedMatch(ctx.deps, recorded, {
            raw,
            region: 'pc-na',
          });
          const spelling = VENDOR_SPELLING[platform]!;
          const asset = (recorded.included as Json[]).find((r) => r.type === 'asset')!;
          const self = `http://api.test/shards/${spelling}/matches/${id}`;

          // Without its telemetry file: the asset is cut out, nothing else changes.
          const pending = await loadMatchDocument(ctx.deps.store, id, variant(spelling));
          const withoutAsset = structuredClone(recorded);
          withoutAsset.included = (withoutAsset.included as Json[]).filter(
            (r) => r !== asset && r.type !== 'asset',
          );
          withoutAsset.data.relationships.assets.data = [];
          withoutAsset.links.self = self;
          withoutAsset.data.links.self = self;
          assert.deepEqual(JSON.parse(pending!.body.toString()), withoutAsset, file);
          assert.equal(pending!.hasTelemetry, false, file);

          // With it: byte for byte as recorded, the three links aside.
          const events = sampleTelemetry(id, Date.parse(recorded.data.attributes.createdAt));
          const attached = await ingestRecordedMatch(ctx.deps, recorded, {
            raw,
            telemetry: Buffer.from(JSON.stringify(events)),
          });
          assert.equal(attached.status, 'attached', file);
          const served = await loadMatchDocument(ctx.deps.store, id, variant(spelling));
          const url = telemetryUrl(
            TEST_CONFIG.telemetryBaseUrl,
            platform,
            Date.parse(asset.attributes.createdAt),
            asset.id,
          );
          const expected = raw
            .toString()
            .replace(JSON.stringify(recorded.links.self), JSON.stringify(self))
            .replace(JSON.stringify(recorded.data.links.self), JSON.stringify(self))
            .replace(JSON.stringify(asset.attributes.URL), JSON.stringify(url));
          assert.equal(served!.body.toString(), expected, file);
          assert.equal(served!.hasTelemetry, true, file);
        }
      } finally {
        await ctx.close();
      }
    },
  );
}
