/**
 * The match document (REFERENCE §3.9, §4.2, §4.3) — a match with its rosters, participants and
 * telemetry asset — and the telemetry file its asset links to (§3.17).
 */
import { Type } from '@sinclair/typebox';
import { Identifier, ResourceLinks, SuccessDocument, Timestamp, ToMany } from './json-api.ts';
import { EXAMPLE_ACCOUNT, EXAMPLE_BASE_URL, EXAMPLE_MATCH } from './examples.ts';

const INTEGER_STATS = (
  'DBNOs assists boosts headshotKills heals killPlace killStreaks kills revives ' +
  'roadKills teamKills timeSurvived vehicleDestroys weaponsAcquired winPlace'
).split(' ');
const NUMBER_STATS = 'damageDealt longestKill rideDistance swimDistance walkDistance'.split(' ');

/** A participant's stats in one match (REFERENCE §4.2): 23 keys. */
export const ParticipantStats = Type.Object(
  {
    ...Object.fromEntries(INTEGER_STATS.map((name) => [name, Type.Integer({ minimum: 0 })])),
    ...Object.fromEntries(NUMBER_STATS.map((name) => [name, Type.Number({ minimum: 0 })])),
    deathType: Type.String({ examples: ['alive', 'byplayer', 'byzone', 'suicide', 'logout'] }),
    name: Type.String(),
    playerId: Type.String({ description: '`account.<32 hex>`, or `ai.<n>` for a bot' }),
  },
  {
    $id: 'ParticipantStats',
    description: 'Distances in metres, `timeSurvived` in seconds; `winPlace` is the roster rank.',
  },
);

const Participant = Type.Object({
  ...Identifier('participant').properties,
  attributes: Type.Object({
    actor: Type.Literal(''),
    shardId: Type.String({ description: "The player's platform shard" }),
    stats: Type.Ref(ParticipantStats),
  }),
});

const Roster = Type.Object({
  ...Identifier('roster').properties,
  attributes: Type.Object({
    won: Type.Union([Type.Literal('true'), Type.Literal('false')], {
      description: 'A string, as the real service sends it',
    }),
    shardId: Type.String(),
    stats: Type.Object({ rank: Type.Integer({ minimum: 1 }), teamId: Type.Integer() }),
  }),
  relationships: Type.Object({
    team: Type.Object({ data: Type.Null() }),
    participants: ToMany('participant'),
  }),
});

const Asset = Type.Object({
  ...Identifier('asset').properties,
  attributes: Type.Object({
    name: Type.Literal('telemetry'),
    description: Type.Literal(''),
    createdAt: Timestamp('When the telemetry file was published: its URL holds this date'),
    URL: Type.String({ description: 'The telemetry file (GET it, no key needed)' }),
  }),
});

const exampleStats = {
  ...Object.fromEntries([...INTEGER_STATS, ...NUMBER_STATS].map((name) => [name, 0])),
  ...{ kills: 4, damageDealt: 312.5, longestKill: 87.25, walkDistance: 2211.9, heals: 3 },
  ...{ killPlace: 1, winPlace: 1, timeSurvived: 1714, weaponsAcquired: 6 },
  ...{ deathType: 'alive', name: 'SlyFox_42', playerId: EXAMPLE_ACCOUNT },
};
const exampleUrl = `${EXAMPLE_BASE_URL}/shards/pc-b/matches/${EXAMPLE_MATCH}`;
const assetId = '5d1e7a60-c6b2-11f1-8e1f-0242ac120002';
const exampleMatch = {
  data: {
    type: 'match',
    id: EXAMPLE_MATCH,
    attributes: {
      createdAt: '2026-11-20T10:02:11Z',
      duration: 1714,
      gameMode: 'solo',
      mapName: 'Baltic_Main',
      matchType: 'official',
      isCustomMatch: false,
      seasonState: 'progress',
      shardId: 'pc-b',
      titleId: 'bluehole-pubg',
      stats: null,
      tags: null,
    },
    relationships: {
      rosters: { data: [{ type: 'roster', id: 'b3f0c1d2-4e5f-4a6b-8c7d-9e0f1a2b3c4d' }] },
      assets: { data: [{ type: 'asset', id: assetId }] },
    },
    links: { self: exampleUrl, schema: '' },
  },
  included: [
    {
      type: 'participant',
      id: 'e7d6c5b4-a392-4817-9f6e-5d4c3b2a1908',
      attributes: {
        actor: '',
        shardId: 'pc-b',
        stats: exampleStats,
      },
    },
    {
      type: 'roster',
      id: 'b3f0c1d2-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      attributes: { won: 'true', shardId: 'pc-b', stats: { rank: 1, teamId: 7 } },
      relationships: {
        team: { data: null },
        participants: {
          data: [{ type: 'participant', id: 'e7d6c5b4-a392-4817-9f6e-5d4c3b2a1908' }],
        },
      },
    },
    {
      type: 'asset',
      id: assetId,
      attributes: {
        name: 'telemetry',
        description: '',
        createdAt: '2026-11-20T10:32:40Z',
        URL: `${EXAMPLE_BASE_URL}/telemetry/bluehole-pubg/pc-b/2026/11/20/10/32/${assetId}-telemetry.json`,
      },
    },
  ],
  links: { self: exampleUrl },
  meta: {},
};

export const MatchDocument = SuccessDocument(
  'MatchDocument',
  {
    data: Type.Object({
      ...Identifier('match').properties,
      attributes: Type.Object({
        createdAt: Timestamp('When the match started'),
        duration: Type.Integer({ minimum: 0, description: 'Seconds' }),
        gameMode: Type.String({ examples: ['squad-fpp'] }),
        mapName: Type.String({ examples: ['Baltic_Main'] }),
        matchType: Type.String({ examples: ['official'] }),
        isCustomMatch: Type.Boolean(),
        seasonState: Type.String({ examples: ['progress'] }),
        shardId: Type.String(),
        titleId: Type.String(),
        stats: Type.Null(),
        tags: Type.Null(),
      }),
      relationships: Type.Object({
        rosters: ToMany('roster'),
        assets: ToMany('asset', 'Exactly one: the telemetry file'),
      }),
      links: ResourceLinks,
    }),
    included: Type.Array(Type.Union([Participant, Roster, Asset]), {
      description: 'Every participant and roster of the match, and its asset, in no set order',
    }),
  },
  {
    description: 'A match: immutable, so cacheable for as long as it is kept.',
    examples: [exampleMatch],
  },
);

/** A telemetry file: one JSON array of events, each naming its type and time. */
export const TelemetryFile = Type.Array(
  Type.Object(
    {
      _T: Type.String({ description: 'The event type (`LogMatchStart`, `LogPlayerKillV2` …)' }),
      _D: Type.String({ description: 'When it happened: ISO 8601 UTC with milliseconds' }),
    },
    { additionalProperties: true },
  ),
  {
    $id: 'TelemetryFile',
    description: "A match's telemetry events (ENUMS.md §8–§10 of the reference); stored gzipped.",
    examples: [
      [
        { _T: 'LogMatchStart', _D: '2026-11-20T10:02:12.004Z', common: { isGame: 0 } },
        { _T: 'LogMatchEnd', _D: '2026-11-20T10:30:45.871Z', common: { isGame: 8 } },
      ],
    ],
  },
);
