/**
 * The ingest format: one finished match as a game server reports it. This TypeBox schema is the
 * validation, the TypeScript type and, exported by `npm run schema`, the JSON Schema shipped in
 * `schemas/match-input.schema.json`.
 */
import { Type, type Static } from '@sinclair/typebox';
import { MATCH_TYPES, SEASON_STATES, DEATH_TYPES } from '../domain/game-modes.ts';
import { PLATFORMS, REGIONS } from '../domain/shards.ts';

const Uuid = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  description: 'A UUID.',
});
const Timestamp = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$',
  description: 'ISO 8601 date-time with a zone, e.g. 2026-11-20T18:02:11Z.',
});
const Count = Type.Integer({ minimum: 0 });
const Metres = Type.Number({ minimum: 0 });

/** Per-participant stats of REFERENCE §4.2, less `name` and `playerId` (given beside them). */
export const ParticipantStatsInput = Type.Object(
  {
    DBNOs: Count,
    assists: Count,
    boosts: Count,
    damageDealt: Type.Number({ minimum: 0, description: 'Damage dealt to enemies, in HP.' }),
    deathType: Type.Union(DEATH_TYPES.map((t) => Type.Literal(t))),
    headshotKills: Count,
    heals: Count,
    killPlace: Type.Integer({ minimum: 1 }),
    killStreaks: Count,
    kills: Count,
    longestKill: { ...Metres, description: 'Metres.' },
    revives: Count,
    rideDistance: { ...Metres, description: 'Metres.' },
    roadKills: Count,
    swimDistance: { ...Metres, description: 'Metres.' },
    teamKills: Count,
    timeSurvived: Type.Number({ minimum: 0, description: 'Seconds.' }),
    vehicleDestroys: Count,
    walkDistance: { ...Metres, description: 'Metres.' },
    weaponsAcquired: Count,
    winPlace: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);

export const ParticipantInput = Type.Object(
  {
    id: Type.Optional({
      ...Uuid,
      description: 'Participant id; derived from the match id when absent.',
    }),
    playerId: Type.String({
      pattern: '^(account\\.[0-9a-f]{32}|ai\\.\\d+)$',
      description: 'account.<32 hex> for players, ai.<n> for bots.',
    }),
    name: Type.String({ minLength: 1, maxLength: 64 }),
    shardId: Type.Optional(
      Type.Union(
        PLATFORMS.map((p) => Type.Literal(p)),
        {
          description: "The player's platform when it differs from the match's (cross-play).",
        },
      ),
    ),
    stats: ParticipantStatsInput,
  },
  { additionalProperties: false },
);

export const RosterInput = Type.Object(
  {
    id: Type.Optional({
      ...Uuid,
      description: 'Roster id; derived from the match id when absent.',
    }),
    teamId: Type.Integer({ minimum: 0 }),
    rank: Type.Integer({ minimum: 1, description: 'Placement of the team, 1 = winner.' }),
    won: Type.Boolean(),
    participants: Type.Array(ParticipantInput, { minItems: 1 }),
  },
  { additionalProperties: false },
);

/** One telemetry event: `_T` (event type) and `_D` (timestamp) plus the event's own fields. */
export const TelemetryEventInput = Type.Object(
  {
    _T: Type.String({ pattern: '^Log[A-Za-z0-9]+$' }),
    _D: Type.String({ minLength: 20 }),
  },
  { additionalProperties: true },
);

export const MatchInput = Type.Object(
  {
    id: { ...Uuid, description: 'Match id. Ingesting a match whose id is stored changes nothing.' },
    platformShard: Type.Union(PLATFORMS.map((p) => Type.Literal(p))),
    regionShard: Type.Union(
      REGIONS.map((r) => Type.Literal(r)),
      {
        description: 'Must belong to platformShard (pc-eu → pc-b, console-a-na → console-a …).',
      },
    ),
    createdAt: Timestamp,
    duration: Type.Integer({ minimum: 0, description: 'Seconds.' }),
    gameMode: Type.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }),
    mapName: Type.String({ pattern: '^[A-Za-z0-9_]+$' }),
    matchType: Type.Union(MATCH_TYPES.map((t) => Type.Literal(t))),
    isCustomMatch: Type.Boolean(),
    seasonState: Type.Optional(Type.Union(SEASON_STATES.map((s) => Type.Literal(s)))),
    titleId: Type.Optional(Type.String({ minLength: 1 })),
    tournamentId: Type.Optional(
      Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$', description: 'e.g. eu-pgs25' }),
    ),
    telemetryAssetId: Type.Optional({
      ...Uuid,
      description: 'Asset id; a v1 UUID is made when absent.',
    }),
    telemetryCreatedAt: Type.Optional({
      ...Timestamp,
      description: 'When the telemetry file was published; default createdAt + duration + 2 min.',
    }),
    rosters: Type.Array(RosterInput, { minItems: 1 }),
    telemetry: Type.Optional(Type.Array(TelemetryEventInput)),
  },
  { additionalProperties: false, $id: 'MatchInput', title: 'A finished match' },
);

export type MatchInput = Static<typeof MatchInput>;
export type RosterInput = Static<typeof RosterInput>;
export type ParticipantInput = Static<typeof ParticipantInput>;
export type ParticipantStatsInput = Static<typeof ParticipantStatsInput>;
export type TelemetryEventInput = Static<typeof TelemetryEventInput>;
