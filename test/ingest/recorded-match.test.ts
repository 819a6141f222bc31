import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { resolveShard, VENDOR_SHARD_ALIASES } from '../../src/domain/shards.ts';
import { RECORDING_ERAS, recordingEraAt } from '../../src/domain/recording-eras.ts';
import { IngestError, ingestMatch } from '../../src/ingest/ingest-match.ts';
import {
  FALLBACK_MAP_NAME,
  ingestRecordedMatch,
  matchInputFromDocument,
} from '../../src/ingest/recorded-match.ts';
import {
  renderMatchDocument,
  renderParticipantStats,
  type MatchRecord,
} from '../../src/presenters/match-document.ts';
import { testDatabases } from '../helpers/stores.ts';
import { openIngestContext, TEST_CONFIG } from '../helpers/ingest-deps.ts';
import { makeMatchInput, participantsOf, sampleTelemetry, testUuid } from '../helpers/matches.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/reference/fixtures/match');
const fixtureFiles = fs.existsSync(FIXTURES)
  ? fs
      .readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];

/** A match document as the real service served it, every `shardId` spelled `spelling`. */
function recordedDocument(
  spelling = 'steam',
  options: Parameters<typeof makeMatchInput>[0] = {},
): Json {
  const input = makeMatchInput({ rosters: 3, playersPerRoster: 2, ...options });
  let n = 0;
  const record: MatchRecord = {
    id: input.id,
    platform: input.platformShard,
    createdAt: Date.parse(input.createdAt),
    duration: input.duration,
    gameMode: input.gameMode,
    mapName: input.mapName,
    matchType: input.matchType,
    isCustomMatch: input.isCustomMatch,
    seasonState: 'progress',
    titleId: 'bluehole-pubg',
    assetId: '3202f4e8-3918-11f1-92c5-d6d68ddb6e17',
    assetCreatedAt: Date.parse(input.createdAt) + 1_950_000,
    hasTelemetry: true,
    rosters: input.rosters.map((roster, r) => ({
      id: testUuid(`roster-${r}`),
      teamId: roster.teamId,
      rank: roster.rank,
      won: roster.won,
      participantIds: roster.participants.map(() => testUuid(`participant-${n++}`)),
    })),
    participants: participantsOf(input).map((p, i) => ({
      id: testUuid(`participant-${i}`),
      platform: input.platformShard,
      statsJson: renderParticipantStats(p.name, p.playerId, p.stats),
    })),
  };
  const variant = {
    shard: resolveShard('steam', VENDOR_SHARD_ALIASES)!,
    shardAliases: VENDOR_SHARD_ALIASES,
    publicBaseUrl: 'https://api.pubg.com',
    telemetryBaseUrl: 'https://telemetry-cdn.pubg.com',
  };
  const doc = JSON.parse(renderMatchDocument(record, variant)) as Json;
  doc.data.attributes.shardId = spelling;
  for (const resource of doc.included as Json[]) {
    if (resource.type !== 'asset') resource.attributes.shardId = spelling;
  }
  return doc;
}

test('a recorded document keeps its ids and values', () => {
  const doc = recordedDocument('steam');
  const input = matchInputFromDocument(doc, { region: 'pc-na' });
  assert.equal(input.id, doc.data.id);
  assert.equal(input.platformShard, 'pc-b');
  assert.equal(input.regionShard, 'pc-na');
  assert.equal(input.telemetryAssetId, '3202f4e8-3918-11f1-92c5-d6d68ddb6e17');
  assert.equal(input.telemetryCreatedAt, '2026-11-20T12:32:30Z');
  assert.deepEqual(
    input.rosters.map((r) => r.id),
    doc.data.relationships.rosters.data.map((r: Json) => r.id),
  );
  const original = makeMatchInput({ rosters: 3, playersPerRoster: 2 });
  assert.deepEqual(
    input.rosters.flatMap((r) => r.participants.map((p) => p.stats)),
    participantsOf(original).map((p) => p.stats),
  );
  assert.equal(input.rosters[0]!.won, true);
});

test('the region comes from the shard, the telemetry, the asset URL or the caller, in that order', () => {
  assert.equal(matchInputFromDocument(recordedDocument('pc-eu')).regionShard, 'pc-eu');
  assert.equal(matchInputFromDocument(recordedDocument('xbox-na')).regionShard, 'console-b-na');
  assert.equal(matchInputFromDocument(recordedDocument('kakao')).regionShard, 'pc-a');

  const steam = recordedDocument('steam');
  const telemetry = sampleTelemetry(steam.data.id, Date.parse('2026-11-20T12:00:00Z'));
  assert.equal(matchInputFromDocument(steam, { telemetry, region: 'pc-na' }).regionShard, 'pc-eu');
  const old = [
    {
      _T: 'LogMatchDefinition',
      _D: '2018-04-05T20:51:00.8414374+00:00',
      MatchId: 'match.bro.official.2018-04.sea.squad-fpp.2018.04.05.x',
    },
  ];
  assert.equal(matchInputFromDocument(steam, { telemetry: old }).regionShard, 'pc-sea');

  const withUrl = structuredClone(steam);
  const asset = withUrl.included.find((r: Json) => r.type === 'asset');
  asset.attributes.URL = asset.attributes.URL.replace(
    /\/bluehole-pubg\/[^/]+\//,
    '/bluehole-pubg/pc-krjp/',
  );
  assert.equal(matchInputFromDocument(withUrl).regionShard, 'pc-krjp');

  assert.equal(matchInputFromDocument(steam, { region: 'pc-ru' }).regionShard, 'pc-ru');
  assert.throws(
    () => matchInputFromDocument(steam),
    (error: unknown) =>
      error instanceof IngestError &&
      error.field === 'regionShard' &&
      /pass the region/.test(error.message),
  );
  assert.throws(
    () => matchInputFromDocument(steam, { region: 'xbox-eu' }),
    (error: unknown) => error instanceof IngestError && /not a region of pc-b/.test(error.message),
  );
});

test('fields older documents lack are filled in, removed stats dropped', () => {
  const doc = recordedDocument('pc-eu');
  // A launch-era document (spring 2018): none of these members existed yet.
  doc.data.attributes.createdAt = '2018-04-10T20:00:00Z';
  for (const key of ['mapName', 'matchType', 'isCustomMatch', 'seasonState'])
    delete doc.data.attributes[key];
  for (const resource of doc.included as Json[]) {
    if (resource.type !== 'participant') continue;
    delete resource.attributes.stats.swimDistance;
    Object.assign(resource.attributes.stats, {
      killPoints: 1000,
      winPointsDelta: -10.62,
      mostDamage: 0,
    });
    resource.attributes.stats.timeSurvived = 1166.223;
  }
  // A roster naming a participant the document does not include, and one with nobody left.
  doc.included
    .find((r: Json) => r.type === 'roster')
    .relationships.participants.data.push({ type: 'participant', id: testUuid('gone') });
  doc.included.push({
    type: 'roster',
    id: testUuid('empty'),
    attributes: { won: 'false', shardId: 'pc-eu', stats: { rank: 4, teamId: 9 } },
    relationships: {
      team: { data: null },
      participants: { data: [{ type: 'participant', id: testUuid('gone2') }] },
    },
  });
  doc.data.relationships.rosters.data.push({ type: 'roster', id: testUuid('empty') });

  const input = matchInputFromDocument(doc);
  assert.equal(input.mapName, FALLBACK_MAP_NAME);
  assert.equal(input.matchType, 'official');
  assert.equal(input.isCustomMatch, false);
  assert.equal(input.seasonState, 'closed');
  assert.equal(input.rosters.length, 3);
  assert.equal(input.rosters[0]!.participants.length, 2);
  const stats = input.rosters[0]!.participants[0]!.stats as Record<string, unknown>;
  assert.equal(stats.swimDistance, 0);
  assert.equal(stats.timeSurvived, 1166.223);
  assert.equal('killPoints' in stats, false);
  assert.equal(Object.keys(stats).length, 21);

  const telemetry = [
    {
      _T: 'LogPlayerLogin',
      _D: '2018-04-05T20:49:55.412Z',
      common: { mapName: 'Desert_Main', isGame: 0 },
    },
  ];
  assert.equal(matchInputFromDocument(doc, { telemetry }).mapName, 'Desert_Main');
  doc.data.attributes.isCustomMatch = true;
  assert.equal(matchInputFromDocument(doc).matchType, 'custom');
});

test('a document missing a member its era carries is refused, the member named', () => {
  const refusedAt = (doc: Json, field: RegExp, message = /carry it/): void => {
    assert.throws(
      () => matchInputFromDocument(doc, { region: 'pc-eu' }),
      (error: unknown) =>
        error instanceof IngestError && field.test(error.field) && message.test(error.message),
    );
  };
  const participantIndex = (doc: Json): number =>
    (doc.included as Json[]).findIndex((r) => r.type === 'participant');

  const noKills = recordedDocument('steam');
  const p = participantIndex(noKills);
  delete noKills.included[p].attributes.stats.kills;
  refusedAt(noKills, new RegExp(`^included/${p}/attributes/stats/kills$`), /since 2019-09-08/);
  const nullKills = recordedDocument('steam');
  nullKills.included[p].attributes.stats.kills = null;
  refusedAt(nullKills, /stats\/kills$/);

  // swimDistance: carried from mid 2018 on, not before.
  const swim = recordedDocument('steam');
  delete swim.included[p].attributes.stats.swimDistance;
  swim.data.attributes.createdAt = '2018-08-01T10:00:00Z';
  refusedAt(swim, /stats\/swimDistance$/, /since 2018-07-05/);
  swim.data.attributes.createdAt = '2018-06-01T10:00:00Z';
  const early = matchInputFromDocument(swim, { region: 'pc-eu' });
  assert.equal(early.rosters[0]!.participants[0]!.stats.swimDistance, 0);

  const noMatchType = recordedDocument('steam');
  delete noMatchType.data.attributes.matchType;
  refusedAt(noMatchType, /^data\/attributes\/matchType$/);
  noMatchType.data.attributes.createdAt = '2019-04-28T23:44:38Z';
  assert.equal(matchInputFromDocument(noMatchType, { region: 'pc-eu' }).matchType, 'official');

  const noTeam = recordedDocument('steam');
  const r = (noTeam.included as Json[]).findIndex((x) => x.type === 'roster');
  delete noTeam.included[r].attributes.stats.teamId;
  refusedAt(noTeam, new RegExp(`^included/${r}/attributes/stats/teamId$`));

  const noAsset = recordedDocument('steam');
  noAsset.included = (noAsset.included as Json[]).filter((x) => x.type !== 'asset');
  refusedAt(noAsset, /^included$/, /asset/);
  const noCreatedAt = recordedDocument('steam');
  delete noCreatedAt.data.attributes.createdAt;
  refusedAt(noCreatedAt, /^data\/attributes\/createdAt$/, /date-time/);
});

test('the era rules: each era carries what the one before did, boundaries included', () => {
  assert.equal(recordingEraAt(Date.parse('2018-04-05T20:51:00Z')).name, 'launch');
  assert.equal(recordingEraAt(Date.parse('2018-07-05T00:00:00Z')).name, 'custom-games');
  assert.equal(recordingEraAt(Date.parse('2018-12-26T23:59:59Z')).name, 'custom-games');
  assert.equal(recordingEraAt(Date.parse('2018-12-27T00:00:00Z')).name, 'seasons');
  assert.equal(recordingEraAt(Date.parse('2026-04-15T21:45:33Z')).name, 'match-types');
  for (const [i, era] of RECORDING_ERAS.entries()) {
    const previous = RECORDING_ERAS[i - 1];
    if (previous === undefined) continue;
    for (const member of previous.matchAttributes) assert.ok(era.matchAttributes.includes(member));
    for (const member of previous.participantStats) {
      assert.ok(era.participantStats.includes(member));
    }
  }
  assert.ok(RECORDING_ERAS.at(-1)!.participantStats.includes('kills'));
  assert.equal(RECORDING_ERAS.at(-1)!.participantStats.length, 23);
});

test('anything but a match document is refused', () => {
  assert.throws(() => matchInputFromDocument({ data: { type: 'player' } }), IngestError);
  const doc = recordedDocument('stadia-na');
  assert.throws(() => matchInputFromDocument(doc), /shardId: unknown shard "stadia-na"/);
});

for (const database of testDatabases) {
  const name = (title: string): string => `[${database.name}] ${title}`;

  test(name('a recorded document ingests with its gzip telemetry'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const doc = recordedDocument('steam');
      const events = sampleTelemetry(doc.data.id, Date.parse('2026-11-20T12:00:00Z'));
      const result = await ingestRecordedMatch(ctx.deps, doc, {
        telemetry: zlib.gzipSync(JSON.stringify(events)),
      });
      assert.deepEqual(result, {
        status: 'ingested',
        matchId: doc.data.id,
        platform: 'pc-b',
        telemetry: true,
      });
      const match = await ctx.deps.store.db
        .selectFrom('matches')
        .selectAll()
        .executeTakeFirstOrThrow();
      assert.equal(match.region, 'pc-eu');
      assert.equal(match.asset_id, '3202f4e8-3918-11f1-92c5-d6d68ddb6e17');
      assert.deepEqual(ctx.blobs(), [
        `bluehole-pubg/pc-b/2026/11/20/12/32/${match.asset_id}-telemetry.json`,
      ]);
      assert.deepEqual(await ingestRecordedMatch(ctx.deps, doc, { region: 'pc-na' }), {
        status: 'unchanged',
        matchId: doc.data.id,
        platform: 'pc-b',
        telemetry: true,
      });
    } finally {
      await ctx.close();
    }
  });

  test(name('a broken telemetry file refuses the match and stores nothing'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const truncated = zlib.gzipSync('[{"_T":"LogMatchDefinition","_D":"2026-11-20T12:0');
      await assert.rejects(
        ingestRecordedMatch(ctx.deps, recordedDocument('pc-eu'), { telemetry: truncated }),
        (error: unknown) => error instanceof IngestError && error.field === 'telemetry',
      );
      await assert.rejects(
        ingestRecordedMatch(ctx.deps, recordedDocument('pc-eu'), {
          telemetry: Buffer.from('{"not":"an array"}'),
        }),
        /telemetry: expected a JSON array/,
      );
      assert.equal((await ctx.rowCounts()).matches, 0);
      assert.deepEqual(ctx.blobs(), []);
    } finally {
      await ctx.close();
    }
  });

  test(
    name('every recorded match fixture ingests'),
    { skip: fixtureFiles.length > 0 ? false : 'reference fixtures not present' },
    async () => {
      const ctx = await openIngestContext(database, { retentionDays: 0 });
      try {
        for (const file of fixtureFiles) {
          const doc = JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8')) as Json;
          const result = await ingestRecordedMatch(ctx.deps, doc, { region: 'pc-na' });
          assert.equal(result.status, 'ingested', file);
          assert.equal(result.matchId, doc.data.id, file);

          const included = doc.included as Json[];
          const members = new Set(
            included.filter((r) => r.type === 'participant').map((r) => r.id),
          );
          const rosters = await ctx.deps.store.db
            .selectFrom('rosters')
            .select('id')
            .where('match_id', '=', doc.data.id)
            .execute();
          const expectedRosters = included.filter(
            (r) =>
              r.type === 'roster' &&
              r.relationships.participants.data.some((p: Json) => members.has(p.id)),
          );
          assert.equal(rosters.length, expectedRosters.length, file);
          const participants = await ctx.deps.store.db
            .selectFrom('participants')
            .select('id')
            .where('match_id', '=', doc.data.id)
            .execute();
          assert.deepEqual(new Set(participants.map((p) => p.id)), members, file);
          const match = await ctx.deps.store.db
            .selectFrom('matches')
            .selectAll()
            .where('id', '=', doc.data.id)
            .executeTakeFirstOrThrow();
          const asset = included.find((r) => r.type === 'asset')!;
          assert.equal(match.asset_id, asset.id, file);
          assert.equal(match.asset_created_at, Date.parse(asset.attributes.createdAt), file);
        }
      } finally {
        await ctx.close();
      }
    },
  );

  test(name('ingestMatch and the recorded path agree on a match'), async () => {
    const ctx = await openIngestContext(database);
    try {
      const doc = recordedDocument('pc-eu');
      const input = matchInputFromDocument(doc, { aliases: TEST_CONFIG.shardAliases });
      assert.equal((await ingestMatch(ctx.deps, input)).status, 'ingested');
      assert.equal((await ingestRecordedMatch(ctx.deps, doc)).status, 'unchanged');
    } finally {
      await ctx.close();
    }
  });
}
